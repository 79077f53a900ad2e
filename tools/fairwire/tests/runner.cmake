# The campaign runner (tools/fairwire/fairwire): its self-test targets with their
# manifests, and its ctest tests (label runner). Included by
# tools/fairwire/CMakeLists.txt. The runner finds the real fuzz targets by the
# manifests fairwire_add_fuzz_target writes (<build>/fairwire-targets/).

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
  # Their manifests, in fairwire_add_fuzz_target's format but in a folder of
  # their own (not fairwire-targets/): no corpus of their own, the self-test
  # gives the runner a corpus root (--corpus-root).
  set(_fw_selftest_targets ${CMAKE_BINARY_DIR}/fairwire-selftest-targets)
  foreach(variant IN ITEMS runner_selftest runner_selftest_fixed)
    file(GENERATE OUTPUT "${_fw_selftest_targets}/${variant}.json" CONTENT
"{
  \"format\": 1,
  \"name\": \"${variant}\",
  \"engine\": \"${FAIRWIRE_FUZZ_ENGINE}\",
  \"fuzzer\": \"$<TARGET_FILE:${variant}>\",
  \"replay\": \"$<TARGET_FILE:${variant}_replay>\",
  \"corpus\": \"\",
  \"dict\": \"\",
  \"options\": \"\",
  \"source_dir\": \"${PROJECT_SOURCE_DIR}\",
  \"build_dir\": \"${CMAKE_BINARY_DIR}\"
}
")
  endforeach()

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
                     --targets-dir ${_fw_selftest_targets}
                     --broken-replay $<TARGET_FILE:runner_selftest_replay>
                     --fixed-replay $<TARGET_FILE:runner_selftest_fixed_replay>
                     --work ${CMAKE_CURRENT_BINARY_DIR}/runner_selftest_work)
    set_tests_properties(${_fw_test} PROPERTIES LABELS runner TIMEOUT 180 RUN_SERIAL ON)
  endif()
endif()
