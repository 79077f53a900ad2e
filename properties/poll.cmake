# The poll side of properties/: the reference model, the PollScript scenario
# (byte codec, printer, shrinker), the harness that drives the real
# composites and the ten property checks. fairwire_props_poll links no
# RapidCheck: the poll_schedule fuzz target uses it too.
add_library(fairwire_props_poll STATIC
  ${CMAKE_CURRENT_LIST_DIR}/scenarios/poll_script.cc
  ${CMAKE_CURRENT_LIST_DIR}/models/poll_model.cc
  ${CMAKE_CURRENT_LIST_DIR}/poll/poll_checks.cc
  ${CMAKE_CURRENT_LIST_DIR}/poll/poll_model_run.cc
  ${CMAKE_CURRENT_LIST_DIR}/poll/poll_served_within.cc
  ${CMAKE_CURRENT_LIST_DIR}/poll/poll_runners.cc
  ${CMAKE_CURRENT_LIST_DIR}/poll/poll_run_select_boxed.cc
  ${CMAKE_CURRENT_LIST_DIR}/poll/poll_run_typed.cc
  ${CMAKE_CURRENT_LIST_DIR}/poll/poll_run_nested.cc)
target_include_directories(fairwire_props_poll PUBLIC
  ${CMAKE_CURRENT_LIST_DIR}/scenarios
  ${CMAKE_CURRENT_LIST_DIR}/models
  ${CMAKE_CURRENT_LIST_DIR}/poll)
target_link_libraries(fairwire_props_poll PUBLIC fairwire_poll PRIVATE fairwire_options)
# Under libFuzzer, the reference model and the property checks are compiled
# without coverage (edge counters and comparison tracing): they run on every
# input whatever the core did, their loops' hit counts only track input size,
# and tracing their comparisons took about a third of each execution's time
# (ASan replay of 1000 inputs: 2.4 s -> 1.5 s CPU). The checks run
# unchanged; the fuzzer is guided by the scenario decoder, the harness and
# the composites under test, which stay instrumented.
if(FAIRWIRE_BUILD_FUZZERS AND FAIRWIRE_FUZZ_ENGINE STREQUAL "libfuzzer"
   AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set_source_files_properties(
    ${CMAKE_CURRENT_LIST_DIR}/models/poll_model.cc
    ${CMAKE_CURRENT_LIST_DIR}/poll/poll_checks.cc
    ${CMAKE_CURRENT_LIST_DIR}/poll/poll_model_run.cc
    ${CMAKE_CURRENT_LIST_DIR}/poll/poll_served_within.cc
    PROPERTIES COMPILE_OPTIONS
      "-fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table")
endif()

if(FAIRWIRE_BUILD_TESTS)
  # One RapidCheck property per DESIGN.md item 1..10, for Select and
  # SelectAll over every policy; the rc::state model-based test; the
  # negative tests (starvation found and shrunk, off-by-one cursor caught).
  fairwire_add_property_test(poll_properties
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/poll/poll_properties_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/poll/poll_stateful_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/poll/poll_negative_test.cc
    LIBRARIES fairwire_props_poll)
  # The scenario codec, printer and shrinker, and the model on fixed cases.
  fairwire_add_unit_test(poll_scenario_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/poll/poll_scenario_test.cc
    LIBRARIES fairwire_props_poll)
endif()

# --- Seed corpus: the committed generator and its up-to-date check ---------
# Regenerate: poll_make_seeds --write corpus   (from the source root)
add_executable(poll_make_seeds ${PROJECT_SOURCE_DIR}/corpus/gen/poll_make_seeds.cc)
target_link_libraries(poll_make_seeds PRIVATE fairwire_props_poll fairwire_options)
if(FAIRWIRE_BUILD_TESTS)
  add_test(NAME corpus.poll_seeds_up_to_date
           COMMAND poll_make_seeds --check ${PROJECT_SOURCE_DIR}/corpus)
  set_tests_properties(corpus.poll_seeds_up_to_date PROPERTIES LABELS corpus)
endif()
