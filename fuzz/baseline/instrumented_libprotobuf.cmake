# baseline_libprotobuf_instrumented: baseline_libprotobuf's check linked with
# a static libprotobuf built here, with the same sanitizers and libFuzzer
# coverage as every fairwire target, from Debian's source package of the
# libprotobuf this build found (the generated code of the test schemas comes
# from Debian's protoc, so the versions must be the same).
#
# The source is a dependency like the others, from Debian's archive, fetched
# by `ci/install-deps --protobuf-source` into out/deps/protobuf-<version>
# (found there), or given as FAIRWIRE_PROTOBUF_SOURCE_DIR. Nothing is
# downloaded at build time; without the source this baseline is not built,
# and `fairwire fuzz bench` says so.
#
# One difference from the targets' flags: -fno-sanitize=nonnull-attribute.
# libprotobuf 3.21.12 passes memcpy a null destination with length 0
# (parse_context.h:812, EpsCopyInputStream::ReadPackedFixed), which UBSan
# reports at once on wire_decode_diff's corpus (the input 7e 3a). That
# is libprotobuf's, harmless in practice, and not what the yardstick measures;
# OSS-Fuzz's UBSan set leaves the check out for the same reason.
set(FAIRWIRE_PROTOBUF_SOURCE_DIR "" CACHE PATH
  "Debian's source of the installed libprotobuf, for baseline_libprotobuf_instrumented (default: out/deps/protobuf-<version>)")

set(_fw_pb_src "${FAIRWIRE_PROTOBUF_SOURCE_DIR}")
if(NOT _fw_pb_src AND IS_DIRECTORY "${PROJECT_SOURCE_DIR}/out/deps/protobuf-${Protobuf_VERSION}")
  set(_fw_pb_src "${PROJECT_SOURCE_DIR}/out/deps/protobuf-${Protobuf_VERSION}")
endif()
if(NOT _fw_pb_src)
  message(STATUS "fairwire: baseline_libprotobuf_instrumented not built: no source of "
                 "libprotobuf ${Protobuf_VERSION} (ci/install-deps --protobuf-source)")
  return()
endif()

# The source's version, from its own header, against the library found.
set(_fw_pb_common "${_fw_pb_src}/src/google/protobuf/stubs/common.h")
if(NOT EXISTS "${_fw_pb_common}")
  message(FATAL_ERROR "FAIRWIRE_PROTOBUF_SOURCE_DIR=${_fw_pb_src} is not a protobuf "
                      "source tree (no src/google/protobuf/stubs/common.h)")
endif()
file(STRINGS "${_fw_pb_common}" _fw_pb_define
     REGEX "^#define GOOGLE_PROTOBUF_VERSION [0-9]+")
string(REGEX REPLACE ".* ([0-9]+)$" "\\1" _fw_pb_number "${_fw_pb_define}")
string(REPLACE "." ";" _fw_pb_parts "${Protobuf_VERSION}")
list(GET _fw_pb_parts 0 _fw_pb_major)
list(GET _fw_pb_parts 1 _fw_pb_minor)
list(GET _fw_pb_parts 2 _fw_pb_patch)
math(EXPR _fw_pb_expected "${_fw_pb_major} * 1000000 + ${_fw_pb_minor} * 1000 + ${_fw_pb_patch}")
if(NOT _fw_pb_number EQUAL _fw_pb_expected)
  message(FATAL_ERROR "${_fw_pb_src} is protobuf ${_fw_pb_number}, but this build "
                      "generates code with protoc ${Protobuf_VERSION} (${_fw_pb_expected}); "
                      "fetch the matching source with ci/install-deps --protobuf-source")
endif()
message(STATUS "fairwire: baseline_libprotobuf_instrumented from ${_fw_pb_src}")

# protobuf's CMake project needs a C compiler too: clang's, beside clang++.
string(REGEX REPLACE "clang\\+\\+" "clang" _fw_pb_cc "${CMAKE_CXX_COMPILER}")
list(JOIN FAIRWIRE_SANITIZERS "," _fw_pb_san)
set(_fw_pb_flags "-fsanitize=fuzzer-no-link -fno-omit-frame-pointer -g")
if(_fw_pb_san)
  string(PREPEND _fw_pb_flags "-fsanitize=${_fw_pb_san} -fno-sanitize-recover=all ")
  if(_fw_pb_san MATCHES "undefined")
    string(APPEND _fw_pb_flags " -fno-sanitize=nonnull-attribute")
  endif()
endif()
# The standard library's functions without coverage, as in the targets
# (cmake/std_coverage_ignorelist.txt).
if(_fairwire_std_ignorelist)
  string(APPEND _fw_pb_flags " -fsanitize-coverage-ignorelist=${_fairwire_std_ignorelist}")
endif()
set(_fw_pb_bin "${CMAKE_CURRENT_BINARY_DIR}/libprotobuf-instrumented")
include(ExternalProject)
ExternalProject_Add(fairwire_libprotobuf_instrumented_build
  SOURCE_DIR "${_fw_pb_src}"
  BINARY_DIR "${_fw_pb_bin}"
  CMAKE_ARGS
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
    -DCMAKE_C_COMPILER=${_fw_pb_cc}
    -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
    -DCMAKE_C_FLAGS=${_fw_pb_flags}
    -DCMAKE_CXX_FLAGS=${_fw_pb_flags}
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON
    -Dprotobuf_BUILD_TESTS=OFF
    -Dprotobuf_BUILD_PROTOC_BINARIES=OFF
    -Dprotobuf_BUILD_SHARED_LIBS=OFF
    -Dprotobuf_WITH_ZLIB=OFF
    -Dprotobuf_INSTALL=OFF
  BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target libprotobuf
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS "${_fw_pb_bin}/libprotobuf.a"
  EXCLUDE_FROM_ALL TRUE)

find_package(Threads REQUIRED)
add_library(fairwire_libprotobuf_instrumented STATIC IMPORTED)
set_target_properties(fairwire_libprotobuf_instrumented PROPERTIES
  IMPORTED_LOCATION "${_fw_pb_bin}/libprotobuf.a"
  INTERFACE_INCLUDE_DIRECTORIES "${_fw_pb_src}/src"
  INTERFACE_LINK_LIBRARIES Threads::Threads)
add_dependencies(fairwire_libprotobuf_instrumented fairwire_libprotobuf_instrumented_build)

# The test schemas' generated code (fairwire_test_proto's, from Debian's
# protoc) and the baseline's check, compiled against the source's headers:
# no object of this baseline sees Debian's libprotobuf headers or library.
add_library(baseline_libprotobuf_instrumented_body OBJECT
  baseline_libprotobuf.cc
  "${FAIRWIRE_TEST_PROTO_GEN_DIR}/fairwire_test.pb.cc"
  "${FAIRWIRE_TEST_PROTO_GEN_DIR}/fairwire_test3.pb.cc")
set_source_files_properties(
  "${FAIRWIRE_TEST_PROTO_GEN_DIR}/fairwire_test.pb.cc"
  "${FAIRWIRE_TEST_PROTO_GEN_DIR}/fairwire_test3.pb.cc"
  PROPERTIES GENERATED TRUE
  # Generated code is not ours: the targets' sanitizers and coverage, not
  # their warnings.
  COMPILE_OPTIONS "-Wno-everything")
add_dependencies(baseline_libprotobuf_instrumented_body fairwire_test_proto)
target_include_directories(baseline_libprotobuf_instrumented_body SYSTEM PRIVATE
  "${FAIRWIRE_TEST_PROTO_GEN_DIR}")
target_compile_definitions(baseline_libprotobuf_instrumented_body PRIVATE
  FAIRWIRE_BASELINE_NAME="baseline_libprotobuf_instrumented")
target_link_libraries(baseline_libprotobuf_instrumented_body
  PUBLIC fairwire::fuzz_driver fairwire_libprotobuf_instrumented
  PRIVATE fairwire_options)
_fairwire_baseline(baseline_libprotobuf_instrumented baseline_libprotobuf_instrumented_body)
