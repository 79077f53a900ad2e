# Installs the core libraries, their headers and the CMake package, so that
#   find_package(fairwire CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE fairwire::poll fairwire::wire)
# works from an installed prefix (ci/tests/install_test.sh checks it).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_fairwire_installed fairwire_poll fairwire_wire)
if(TARGET fairwire_protobuf)
  list(APPEND _fairwire_installed fairwire_protobuf)
  set(FAIRWIRE_PACKAGE_NEEDS_PROTOBUF ON)
else()
  set(FAIRWIRE_PACKAGE_NEEDS_PROTOBUF OFF)
endif()

install(TARGETS ${_fairwire_installed}
        EXPORT fairwireTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/fairwire
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT fairwireTargets
        NAMESPACE fairwire::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fairwire)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/fairwireConfig.cmake.in
  ${PROJECT_BINARY_DIR}/fairwireConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fairwire)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/fairwireConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/fairwireConfig.cmake
              ${PROJECT_BINARY_DIR}/fairwireConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fairwire)
