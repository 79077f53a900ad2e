# Installs the fairwire package: the core libraries and the harness layers
# with their headers, the test .proto files with their generated code, the
# seed corpora and dictionaries, the fuzz driver's sources with
# fairwire_add_fuzz_target, and the `fairwire` command. Then
#   find_package(fairwire CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE fairwire::poll fairwire::wire)
#   fairwire_add_fuzz_target(my_target SOURCES t.cc LIBRARIES fairwire::wire_checks)
# work from the installed prefix (examples/install_test.sh checks it).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_fairwire_share ${CMAKE_INSTALL_DATADIR}/fairwire)
set(_fairwire_cmake ${CMAKE_INSTALL_LIBDIR}/cmake/fairwire)

# --- Libraries -------------------------------------------------------------
set(_fairwire_installed fairwire_poll fairwire_wire)
set(FAIRWIRE_PACKAGE_HAS_HARNESS OFF)
if(TARGET fairwire_protobuf)
  list(APPEND _fairwire_installed fairwire_protobuf)
  set(FAIRWIRE_PACKAGE_NEEDS_PROTOBUF ON)
else()
  set(FAIRWIRE_PACKAGE_NEEDS_PROTOBUF OFF)
endif()
if(TARGET fairwire_wire_checks)
  set(FAIRWIRE_PACKAGE_HAS_HARNESS ON)
  list(APPEND _fairwire_installed fairwire_test_proto fairwire_models fairwire_scenarios
       fairwire_poll_checks fairwire_wire_checks fairwire_fuzz_driver)
endif()
if(TARGET fairwire_text_format)
  list(APPEND _fairwire_installed fairwire_text_format fairwire_descriptor_text_format)
endif()

install(TARGETS ${_fairwire_installed}
        EXPORT fairwireTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT fairwireTargets NAMESPACE fairwire:: DESTINATION ${_fairwire_cmake})
# The RapidCheck generators in an export set of their own: only a consumer
# that has RapidCheck loads them.
set(FAIRWIRE_PACKAGE_HAS_GENERATORS OFF)
if(TARGET fairwire_generators)
  set(FAIRWIRE_PACKAGE_HAS_GENERATORS ON)
  install(TARGETS fairwire_generators EXPORT fairwireGeneratorsTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT fairwireGeneratorsTargets NAMESPACE fairwire::
          DESTINATION ${_fairwire_cmake})
endif()

# --- Headers ---------------------------------------------------------------
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/fairwire
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(FAIRWIRE_PACKAGE_HAS_HARNESS)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/properties/include/fairwire
                    ${PROJECT_SOURCE_DIR}/fuzz/driver/include/fairwire
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY ${FAIRWIRE_TEST_PROTO_GEN_DIR}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/fairwire/test_proto
          FILES_MATCHING PATTERN "*.pb.h")
endif()
if(TARGET fairwire_text_format)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/text_format/include/fairwire
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()

# --- Data: schemas, corpora, dictionaries, the fuzz driver -----------------
if(FAIRWIRE_PACKAGE_HAS_HARNESS)
  install(FILES ${FAIRWIRE_TEST_PROTO_DIR}/fairwire_test.proto
                ${FAIRWIRE_TEST_PROTO_DIR}/fairwire_test3.proto
          DESTINATION ${_fairwire_share}/proto)
  # Seeds and regressions of every target (not a campaign's found/ files).
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/corpus/
          DESTINATION ${_fairwire_share}/corpus
          PATTERN "gen" EXCLUDE PATTERN "found" EXCLUDE PATTERN "CMakeLists.txt" EXCLUDE)
  install(FILES ${PROJECT_SOURCE_DIR}/fuzz/driver/entry.cc
                ${PROJECT_SOURCE_DIR}/fuzz/driver/replay_main.cc
          DESTINATION ${_fairwire_share}/fuzz)
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/fuzz/driver/smoke.sh
          DESTINATION ${_fairwire_share}/fuzz)
  # The wire kit's and the poll kit's target and test sources
  # (fairwire_add_decoder_kit, fairwire_add_poll_kit).
  install(FILES ${PROJECT_SOURCE_DIR}/fuzz/kit/decoder_diff.cc
                ${PROJECT_SOURCE_DIR}/fuzz/kit/decoder_variants.cc
                ${PROJECT_SOURCE_DIR}/fuzz/kit/kit_check.h
                ${PROJECT_SOURCE_DIR}/fuzz/kit/kit_check.cc
                ${PROJECT_SOURCE_DIR}/fuzz/kit/known_divergences_main.cc
                ${PROJECT_SOURCE_DIR}/fuzz/kit/decoder_properties.cc
                ${PROJECT_SOURCE_DIR}/fuzz/kit/poll_kit_target.cc
                ${PROJECT_SOURCE_DIR}/fuzz/kit/poll_kit_properties.cc
                ${PROJECT_SOURCE_DIR}/fuzz/wire_packed_unpacked/mutator.cc
          DESTINATION ${_fairwire_share}/kit)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/cmake/FairwireFuzz.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FairwireKit.cmake
        DESTINATION ${_fairwire_cmake})

# --- The fairwire command --------------------------------------------------
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/fairwire/fairwire
        DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET fairwire-decode)
  # `fairwire decode` runs it from beside the command.
  install(TARGETS fairwire-decode RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/fairwire/runner
        DESTINATION ${_fairwire_share}/python
        PATTERN "__pycache__" EXCLUDE)

# --- The package -----------------------------------------------------------
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/fairwireConfig.cmake.in
  ${PROJECT_BINARY_DIR}/fairwireConfig.cmake
  INSTALL_DESTINATION ${_fairwire_cmake}
  PATH_VARS CMAKE_INSTALL_DATADIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/fairwireConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/fairwireConfig.cmake
              ${PROJECT_BINARY_DIR}/fairwireConfigVersion.cmake
        DESTINATION ${_fairwire_cmake})
