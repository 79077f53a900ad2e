# fairwire_add_fuzz_target(NAME
#     SOURCES src...            # defines fairwire::fuzz::Target() (fairwire/fuzz/target.h)
#     LIBRARIES lib...          # what the target's check needs (fairwire::wire_checks, ...)
#     [CORPUS dir]              # seeds and regressions/ (default: <source>/corpus/NAME)
#     [DICT file]               # libFuzzer/AFL++ dictionary (default: <source>/corpus/dicts/NAME.dict)
#     [OPTIONS file]            # OSS-Fuzz .options file (default: NAME.options beside the sources)
#     [SMOKE_SECONDS n])        # per engine in the fuzz-smoke test (default FAIRWIRE_SMOKE_SECONDS)
#
# Builds, from one source:
#   NAME_replay   standalone driver: replays files and folders, describes and
#                 shrinks inputs; any compiler, no fuzzing engine
#   NAME          the engine binary when FAIRWIRE_BUILD_FUZZERS is on
#                 (FAIRWIRE_FUZZ_ENGINE: libfuzzer, afl, or external for
#                 OSS-Fuzz's $LIB_FUZZING_ENGINE)
# registers the ctest tests (when testing is enabled)
#   corpus.NAME                 every file of CORPUS replayed (label corpus)
#   fuzz-smoke.ENGINE.NAME      a short campaign from CORPUS (label fuzz-smoke)
# and writes <build>/fairwire-targets/NAME.json, by which the `fairwire`
# command finds the target in any build folder.
#
# The same file serves fairwire's own tree and, installed, any project that
# calls find_package(fairwire): there the engine and sanitizer flags are the
# project's own (CMAKE_CXX_FLAGS), and FAIRWIRE_FUZZ_ENGINE and
# FAIRWIRE_BUILD_FUZZERS are cache options of the project.

set(FAIRWIRE_SMOKE_SECONDS 5 CACHE STRING "Seconds per engine and target in the fuzz-smoke tests")
set(FAIRWIRE_LIB_FUZZING_ENGINE "$ENV{LIB_FUZZING_ENGINE}" CACHE STRING
  "Link flags of the external engine (OSS-Fuzz's $LIB_FUZZING_ENGINE)")
if(NOT DEFINED FAIRWIRE_BUILD_FUZZERS)
  option(FAIRWIRE_BUILD_FUZZERS "Fuzz targets linked with a fuzzing engine" OFF)
endif()
if(NOT DEFINED FAIRWIRE_FUZZ_ENGINE)
  set(FAIRWIRE_FUZZ_ENGINE "libfuzzer" CACHE STRING
    "Engine for fuzz targets: libfuzzer, afl, or external ($LIB_FUZZING_ENGINE)")
endif()
if(NOT TARGET fairwire_options)
  option(FAIRWIRE_CORPUS_TESTS "Register the corpus replay test of each fuzz target" ON)
endif()
set_property(GLOBAL PROPERTY FAIRWIRE_FUZZ_TARGETS "")
# The driver sources: beside this file's tree in fairwire's repository, or
# where the package installed them (fairwireConfig.cmake sets it first).
if(NOT FAIRWIRE_FUZZ_DRIVER_DIR)
  set(FAIRWIRE_FUZZ_DRIVER_DIR "${CMAKE_CURRENT_LIST_DIR}/../fuzz/driver")
endif()
get_filename_component(FAIRWIRE_FUZZ_DRIVER_DIR "${FAIRWIRE_FUZZ_DRIVER_DIR}" ABSOLUTE)

# The flags every object of a fuzz target is built with: fairwire_options in
# fairwire's tree; in a user's project, libFuzzer's coverage instrumentation
# when the engine is libfuzzer (the rest comes from CMAKE_CXX_FLAGS).
function(_fairwire_fuzz_flags target)
  if(TARGET fairwire_options)
    target_link_libraries(${target} PRIVATE fairwire_options)
  elseif(FAIRWIRE_BUILD_FUZZERS AND FAIRWIRE_FUZZ_ENGINE STREQUAL "libfuzzer")
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()

# The replay driver and the engine entry point, compiled once per project.
function(_fairwire_fuzz_driver_libraries)
  if(TARGET fairwire_fuzz_replay_main)
    return()
  endif()
  set(dir ${FAIRWIRE_FUZZ_DRIVER_DIR})
  add_library(fairwire_fuzz_replay_main STATIC ${dir}/replay_main.cc)
  target_link_libraries(fairwire_fuzz_replay_main PUBLIC fairwire::fuzz_driver)
  _fairwire_fuzz_flags(fairwire_fuzz_replay_main)
  if(FAIRWIRE_BUILD_FUZZERS)
    # OBJECT, not STATIC: AFL++'s driver references LLVMFuzzerTestOneInput
    # weakly, so an archive member defining it would never be pulled in.
    add_library(fairwire_fuzz_entry OBJECT ${dir}/entry.cc)
    target_link_libraries(fairwire_fuzz_entry PUBLIC fairwire::fuzz_driver)
    _fairwire_fuzz_flags(fairwire_fuzz_entry)
  endif()
endfunction()

function(fairwire_add_fuzz_target name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SMOKE_SECONDS;CORPUS;DICT;OPTIONS"
                        "SOURCES;LIBRARIES")
  if(NOT name MATCHES "^[A-Za-z0-9_-]+$")
    message(FATAL_ERROR "fuzz target name '${name}' must match [A-Za-z0-9_-]+")
  endif()
  if(NOT FAIRWIRE_FUZZ_ENGINE MATCHES "^(libfuzzer|afl|external)$")
    message(FATAL_ERROR "FAIRWIRE_FUZZ_ENGINE must be libfuzzer, afl or external, "
                        "not '${FAIRWIRE_FUZZ_ENGINE}'")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "fairwire_add_fuzz_target(${name}): SOURCES is required")
  endif()
  if(NOT arg_SMOKE_SECONDS)
    set(arg_SMOKE_SECONDS ${FAIRWIRE_SMOKE_SECONDS})
  endif()
  if(NOT arg_CORPUS)
    set(arg_CORPUS "${PROJECT_SOURCE_DIR}/corpus/${name}")
  endif()
  get_filename_component(corpus_dir "${arg_CORPUS}" ABSOLUTE)
  if(NOT IS_DIRECTORY "${corpus_dir}")
    message(FATAL_ERROR "fairwire_add_fuzz_target(${name}): no corpus folder ${corpus_dir}")
  endif()
  set(dict "${arg_DICT}")
  if(NOT arg_DICT AND EXISTS "${PROJECT_SOURCE_DIR}/corpus/dicts/${name}.dict")
    set(dict "${PROJECT_SOURCE_DIR}/corpus/dicts/${name}.dict")
  endif()
  set(options "${arg_OPTIONS}")
  if(NOT arg_OPTIONS AND EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${name}.options")
    set(options "${CMAKE_CURRENT_SOURCE_DIR}/${name}.options")
  endif()
  foreach(file IN ITEMS dict options)
    if(${file})
      get_filename_component(${file} "${${file}}" ABSOLUTE)
      if(NOT EXISTS "${${file}}")
        message(FATAL_ERROR "fairwire_add_fuzz_target(${name}): no such file ${${file}}")
      endif()
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY FAIRWIRE_FUZZ_TARGETS ${name})
  _fairwire_fuzz_driver_libraries()

  add_library(${name}_body OBJECT ${arg_SOURCES})
  target_link_libraries(${name}_body PUBLIC fairwire::fuzz_driver ${arg_LIBRARIES})
  _fairwire_fuzz_flags(${name}_body)

  set(replay_file "")
  if(NOT FAIRWIRE_FUZZ_ENGINE STREQUAL "external" OR NOT FAIRWIRE_BUILD_FUZZERS)
    add_executable(${name}_replay)
    target_link_libraries(${name}_replay PRIVATE ${name}_body fairwire_fuzz_replay_main)
    _fairwire_fuzz_flags(${name}_replay)
    set(replay_file "$<TARGET_FILE:${name}_replay>")
    if(FAIRWIRE_BUILD_TESTS OR FAIRWIRE_CORPUS_TESTS)
      add_test(NAME corpus.${name}
               COMMAND ${name}_replay --require-files "${corpus_dir}")
      set_tests_properties(corpus.${name} PROPERTIES LABELS corpus TIMEOUT 600)
    endif()
  endif()

  set(engine none)
  set(fuzzer_file "")
  if(FAIRWIRE_BUILD_FUZZERS)
    set(engine ${FAIRWIRE_FUZZ_ENGINE})
    add_executable(${name})
    target_link_libraries(${name} PRIVATE ${name}_body fairwire_fuzz_entry)
    _fairwire_fuzz_flags(${name})
    set(fuzzer_file "$<TARGET_FILE:${name}>")
    if(FAIRWIRE_FUZZ_ENGINE STREQUAL "external")
      separate_arguments(_engine UNIX_COMMAND "${FAIRWIRE_LIB_FUZZING_ENGINE}")
      target_link_options(${name} PRIVATE ${_engine})
    else()
      # libFuzzer's main; afl-clang-fast++ turns the same flag into AFL++'s driver.
      target_link_options(${name} PRIVATE -fsanitize=fuzzer)
      set(work "${CMAKE_CURRENT_BINARY_DIR}/smoke/${name}")
      add_test(NAME fuzz-smoke.${FAIRWIRE_FUZZ_ENGINE}.${name}
               COMMAND bash "${FAIRWIRE_FUZZ_DRIVER_DIR}/smoke.sh"
                       ${FAIRWIRE_FUZZ_ENGINE} $<TARGET_FILE:${name}> "${corpus_dir}"
                       "${work}" ${arg_SMOKE_SECONDS} "${dict}")
      set_tests_properties(fuzz-smoke.${FAIRWIRE_FUZZ_ENGINE}.${name} PROPERTIES
                           LABELS fuzz-smoke TIMEOUT 300 RUN_SERIAL ON)
    endif()
  endif()

  # The target's manifest for the `fairwire` command (format 1; paths are
  # absolute, "" where there is none).
  file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/fairwire-targets/${name}.json" CONTENT
"{
  \"format\": 1,
  \"name\": \"${name}\",
  \"engine\": \"${engine}\",
  \"fuzzer\": \"${fuzzer_file}\",
  \"replay\": \"${replay_file}\",
  \"corpus\": \"${corpus_dir}\",
  \"dict\": \"${dict}\",
  \"options\": \"${options}\",
  \"source_dir\": \"${PROJECT_SOURCE_DIR}\",
  \"build_dir\": \"${CMAKE_BINARY_DIR}\"
}
")
endfunction()

include("${CMAKE_CURRENT_LIST_DIR}/FairwireKit.cmake")
