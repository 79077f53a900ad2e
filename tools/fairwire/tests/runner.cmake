# The campaign runner (tools/fairwire/fairwire): its target list, its self-test target and
# its ctest tests (label runner). Included by tools/fairwire/CMakeLists.txt, after
# every fuzz target is defined.

# fairwire-fuzz-targets.tsv: one line per fuzz target of this build, read by
# tools/fairwire/fairwire: name, engine (or none), engine binary (or -), replay binary.
get_property(_fw_targets GLOBAL PROPERTY FAIRWIRE_FUZZ_TARGETS)
set(_fw_engine none)
if(FAIRWIRE_BUILD_FUZZERS)
  set(_fw_engine ${FAIRWIRE_FUZZ_ENGINE})
endif()

function(_fairwire_runner_line out name engine_target replay_target)
  set(fuzzer -)
  set(replay -)
  if(FAIRWIRE_BUILD_FUZZERS AND TARGET ${engine_target})
    set(fuzzer $<TARGET_FILE:${engine_target}>)
  endif()
  if(TARGET ${replay_target})
    set(replay $<TARGET_FILE:${replay_target}>)
  endif()
  set(${out} "${name}\t${_fw_engine}\t${fuzzer}\t${replay}\n" PARENT_SCOPE)
endfunction()

set(_fw_manifest "")
foreach(t IN LISTS _fw_targets)
  _fairwire_runner_line(line ${t} ${t} ${t}_replay)
  string(APPEND _fw_manifest "${line}")
endforeach()
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/fairwire-fuzz-targets.tsv
     CONTENT "${_fw_manifest}")

set(_fw_runner_dir ${CMAKE_CURRENT_SOURCE_DIR}/tests)
# The runner is Python 3 (standard library only); without python3 (an
# OSS-Fuzz builder, say) its tests are left out, the targets still build.
find_program(FAIRWIRE_PYTHON3 NAMES python3)

# Unit tests of the runner's parsers, signatures and report (no build needed).
if(FAIRWIRE_PYTHON3)
  add_test(NAME runner.unit
           COMMAND ${FAIRWIRE_PYTHON3} -m unittest discover -s ${_fw_runner_dir}
                   -p "test_*.py"
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(runner.unit PROPERTIES LABELS runner TIMEOUT 120)
endif()

# The self-test target: varint/zigzag round trip over a deliberately broken
# copy of varint decoding (runner_selftest) and over a correct copy
# (runner_selftest_fixed). Not registered with fairwire_add_fuzz_target: it
# must not join the real targets, their corpus and fuzz-smoke tests.
if(FAIRWIRE_BUILD_FUZZERS AND NOT FAIRWIRE_FUZZ_ENGINE STREQUAL "external")
  foreach(variant IN ITEMS runner_selftest runner_selftest_fixed)
    add_library(${variant}_body OBJECT ${_fw_runner_dir}/selftest_target.cc)
    target_link_libraries(${variant}_body PUBLIC fairwire::fuzz_driver
                                          PRIVATE fairwire_options)
    if(variant STREQUAL "runner_selftest")
      target_compile_definitions(${variant}_body PRIVATE FAIRWIRE_SELFTEST_BROKEN)
    endif()
    add_executable(${variant})
    target_link_libraries(${variant} PRIVATE ${variant}_body fairwire_fuzz_entry
                                             fairwire_options)
    target_link_options(${variant} PRIVATE -fsanitize=fuzzer)
    add_executable(${variant}_replay)
    target_link_libraries(${variant}_replay PRIVATE ${variant}_body
                                                    fairwire_fuzz_replay_main fairwire_options)
  endforeach()
  _fairwire_runner_line(l1 runner_selftest runner_selftest runner_selftest_replay)
  _fairwire_runner_line(l2 runner_selftest_fixed runner_selftest_fixed
                        runner_selftest_fixed_replay)
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/fairwire-selftest-targets.tsv
       CONTENT "${l1}${l2}")

  if(FAIRWIRE_PYTHON3)
    # A short campaign against the broken copy: the runner must find the bug,
    # save it, shrink it, and write a regression that fails against the
    # broken copy and passes against the fixed one; then a campaign stopped by
    # SIGTERM must still write its report. libFuzzer build:
    # runner.finds_shrinks_and_saves_broken_varint; AFL++ build: the same
    # through afl-fuzz and afl-tmin (runner.afl.finds_...).
    set(_fw_test runner.finds_shrinks_and_saves_broken_varint)
    set(_fw_seconds 10)
    if(FAIRWIRE_FUZZ_ENGINE STREQUAL "afl")
      set(_fw_test runner.afl.finds_shrinks_and_saves_broken_varint)
      set(_fw_seconds 20)
    endif()
    add_test(NAME ${_fw_test}
             COMMAND ${FAIRWIRE_PYTHON3} ${_fw_runner_dir}/campaign_selftest.py
                     --engine ${FAIRWIRE_FUZZ_ENGINE} --seconds ${_fw_seconds}
                     --repo ${PROJECT_SOURCE_DIR}
                     --targets-file ${CMAKE_BINARY_DIR}/fairwire-selftest-targets.tsv
                     --broken-replay $<TARGET_FILE:runner_selftest_replay>
                     --fixed-replay $<TARGET_FILE:runner_selftest_fixed_replay>
                     --work ${CMAKE_CURRENT_BINARY_DIR}/runner_selftest_work)
    set_tests_properties(${_fw_test} PROPERTIES LABELS runner TIMEOUT 180 RUN_SERIAL ON)
  endif()
endif()
