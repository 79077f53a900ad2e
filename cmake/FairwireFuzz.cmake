# fairwire_add_fuzz_target(NAME
#     SOURCES src...            # defines fairwire::fuzz::Target() (fuzz/common/target.h)
#     LIBRARIES lib...          # what the body needs (a properties/ library, ...)
#     [SMOKE_SECONDS n])        # per engine in the fuzz-smoke tests (default 5)
#
# Builds, from one source:
#   <NAME>_replay  standalone driver: replays files and folders, describes and
#                  shrinks inputs; any compiler, no fuzzing engine (always built)
#   <NAME>         the engine binary, when FAIRWIRE_BUILD_FUZZERS is on
#                  (libFuzzer, AFL++ or $LIB_FUZZING_ENGINE)
# and registers the ctest tests
#   corpus.<NAME>                  every file of corpus/<NAME>/ (label corpus)
#   fuzz-smoke.<engine>.<NAME>     a short campaign from that corpus (label fuzz-smoke)
# The corpus lives in corpus/<NAME>/ and the dictionary, when there is one,
# in corpus/dicts/<NAME>.dict.

set(FAIRWIRE_SMOKE_SECONDS 5 CACHE STRING "Seconds per engine and target in the fuzz-smoke tests")
set(FAIRWIRE_LIB_FUZZING_ENGINE "$ENV{LIB_FUZZING_ENGINE}" CACHE STRING
  "Link flags of the external engine (OSS-Fuzz's $LIB_FUZZING_ENGINE)")
set_property(GLOBAL PROPERTY FAIRWIRE_FUZZ_TARGETS "")

function(fairwire_add_fuzz_target name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SMOKE_SECONDS" "SOURCES;LIBRARIES")
  if(NOT name MATCHES "^[A-Za-z0-9_-]+$")
    message(FATAL_ERROR "fuzz target name '${name}' must match [A-Za-z0-9_-]+")
  endif()
  if(NOT arg_SMOKE_SECONDS)
    set(arg_SMOKE_SECONDS ${FAIRWIRE_SMOKE_SECONDS})
  endif()
  set_property(GLOBAL APPEND PROPERTY FAIRWIRE_FUZZ_TARGETS ${name})

  add_library(${name}_body OBJECT ${arg_SOURCES})
  target_link_libraries(${name}_body PUBLIC fairwire_fuzz_common ${arg_LIBRARIES}
                                     PRIVATE fairwire_options)

  set(corpus_dir "${PROJECT_SOURCE_DIR}/corpus/${name}")
  set(dict "${PROJECT_SOURCE_DIR}/corpus/dicts/${name}.dict")
  if(NOT EXISTS "${dict}")
    set(dict "")
  endif()

  if(NOT FAIRWIRE_FUZZ_ENGINE STREQUAL "external")
    add_executable(${name}_replay)
    target_link_libraries(${name}_replay PRIVATE ${name}_body fairwire_fuzz_replay_main
                                                 fairwire_options)
    if(FAIRWIRE_BUILD_TESTS)
      add_test(NAME corpus.${name}
               COMMAND ${name}_replay --require-files "${corpus_dir}")
      set_tests_properties(corpus.${name} PROPERTIES LABELS corpus TIMEOUT 600)
    endif()
  endif()

  if(FAIRWIRE_BUILD_FUZZERS)
    add_executable(${name})
    target_link_libraries(${name} PRIVATE ${name}_body fairwire_fuzz_entry fairwire_options)
    if(FAIRWIRE_FUZZ_ENGINE STREQUAL "external")
      separate_arguments(_engine UNIX_COMMAND "${FAIRWIRE_LIB_FUZZING_ENGINE}")
      target_link_options(${name} PRIVATE ${_engine})
    else()
      # libFuzzer's main; afl-clang-fast++ turns the same flag into AFL++'s driver.
      target_link_options(${name} PRIVATE -fsanitize=fuzzer)
      set(work "${CMAKE_CURRENT_BINARY_DIR}/smoke/${name}")
      add_test(NAME fuzz-smoke.${FAIRWIRE_FUZZ_ENGINE}.${name}
               COMMAND "${PROJECT_SOURCE_DIR}/fuzz/common/smoke.sh"
                       ${FAIRWIRE_FUZZ_ENGINE} $<TARGET_FILE:${name}> "${corpus_dir}"
                       "${work}" ${arg_SMOKE_SECONDS} "${dict}")
      set_tests_properties(fuzz-smoke.${FAIRWIRE_FUZZ_ENGINE}.${name} PROPERTIES
                           LABELS fuzz-smoke TIMEOUT 300 RUN_SERIAL ON)
    endif()
  endif()
endfunction()
