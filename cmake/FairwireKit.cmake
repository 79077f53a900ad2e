# fairwire_add_decoder_kit(NAME
#     ADAPTER src...             # defines fairwire::wire::kit::Adapter() (fairwire/checks/wire_adapter.h)
#     KNOWN_DIVERGENCES file     # the adapter's known divergences (fairwire/checks/wire_known_divergences.h)
#     [LIBRARIES lib...]         # the decoder under test and its generated code
#     [CORPUS dir]               # default: fairwire's wire_decode_diff corpus
#     [DICT file])               # default: its dictionary, wire_decode_diff.dict
#
# Checks a protobuf decoder that is not fairwire's with fairwire's wire
# oracle (docs/design.md "The wire kit"). Makes:
#   NAME_adapter             static library: the adapter and its known-divergences
#                            file, embedded (a change of the file reconfigures)
#   NAME_decode_diff         fuzz target (fairwire_add_fuzz_target), with its
#                            replay driver, manifest, corpus and fuzz-smoke tests
#   NAME_packed_unpacked     the same over wire_packed_unpacked's input (a typed
#                            message as given or in an encoding variant), with
#                            its record-level mutator and corpus
#   NAME_known_divergences   the test that replays the file; ctest
#                            known-divergences.NAME (label kit)
#   NAME_properties          RapidCheck properties: generated messages in
#                            every encoding variant, and corrupted; ctest
#                            kit-properties.NAME (labels kit, property), when
#                            RapidCheck and GoogleTest are found
#
# Needs fairwire_add_fuzz_target (cmake/FairwireFuzz.cmake, which includes
# this file) and the fairwire::wire_checks library.

# fairwire_add_poll_kit(NAME
#     KIT src...                 # defines fairwire::poll::kit::Kit() (fairwire/checks/poll_kit.h)
#     [LIBRARIES lib...]         # the composite under test
#     [CORPUS dir])              # default: fairwire's poll_schedule corpus
#
# Checks a C++ poll composite that is not fairwire's with fairwire's poll
# properties (docs/design.md "The poll kit"). Makes:
#   NAME_poll_kit            static library: the kit source
#   NAME_poll_fuzz           fuzz target (fairwire_add_fuzz_target): a poll script
#                            through the composite, every policy-free property and
#                            the claimed model; its replay driver, corpus and
#                            fuzz-smoke tests
#   NAME_poll_properties     RapidCheck properties, the rc::state model test and
#                            the verdict; ctest kit-properties.NAME_poll (labels
#                            kit, property), when RapidCheck and GoogleTest are found
#
# Needs fairwire_add_fuzz_target and the fairwire::poll_checks library.

if(NOT FAIRWIRE_KIT_DIR)
  set(FAIRWIRE_KIT_DIR "${CMAKE_CURRENT_LIST_DIR}/../fuzz/kit")
endif()
get_filename_component(FAIRWIRE_KIT_DIR "${FAIRWIRE_KIT_DIR}" ABSOLUTE)
# wire_packed_unpacked's record-level mutator: installed beside the kit's
# sources, in fairwire's tree in its own target's folder.
if(EXISTS "${FAIRWIRE_KIT_DIR}/mutator.cc")
  set(FAIRWIRE_KIT_MUTATOR "${FAIRWIRE_KIT_DIR}/mutator.cc")
else()
  set(FAIRWIRE_KIT_MUTATOR "${FAIRWIRE_KIT_DIR}/../wire_packed_unpacked/mutator.cc")
endif()
if(NOT FAIRWIRE_KIT_CORPUS)
  if(FAIRWIRE_CORPUS_DIR)
    set(FAIRWIRE_KIT_CORPUS "${FAIRWIRE_CORPUS_DIR}/wire_decode_diff")
  else()
    set(FAIRWIRE_KIT_CORPUS "${CMAKE_CURRENT_LIST_DIR}/../corpus/wire_decode_diff")
  endif()
endif()

if(NOT FAIRWIRE_POLL_KIT_CORPUS)
  get_filename_component(FAIRWIRE_POLL_KIT_CORPUS
                         "${FAIRWIRE_KIT_CORPUS}/../poll_schedule" ABSOLUTE)
endif()

# _fairwire_kit_properties(TARGET SOURCE LIBRARY TEST): a kit's RapidCheck
# properties, TARGET from SOURCE over LIBRARY, run as ctest TEST (labels
# kit, property), where RapidCheck, GoogleTest and fairwire's generators
# are found; otherwise a status message says TEST is not built.
function(_fairwire_kit_properties target source library test)
  if(TARGET fairwire::generators)
    set(generators fairwire::generators)
  elseif(TARGET fairwire_generators)
    set(generators fairwire_generators)
  endif()
  if(NOT (generators AND TARGET rapidcheck AND TARGET rapidcheck_gtest AND
          TARGET GTest::gtest_main))
    message(STATUS "fairwire kit: no RapidCheck, GoogleTest or "
                   "fairwire::generators: ${test} is not built")
    return()
  endif()
  add_executable(${target} "${source}")
  target_link_libraries(${target} PRIVATE ${library} ${generators}
    rapidcheck rapidcheck_gtest GTest::gtest GTest::gtest_main)
  _fairwire_fuzz_flags(${target})
  if(FAIRWIRE_BUILD_FUZZERS AND FAIRWIRE_FUZZ_ENGINE STREQUAL "libfuzzer")
    # Instrumented objects need libFuzzer's counters, not its main.
    target_link_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
  set(params "${FAIRWIRE_RC_PARAMS}")
  if(NOT params)
    set(params "max_success=1000")
  endif()
  add_test(NAME ${test} COMMAND ${target})
  set_tests_properties(${test} PROPERTIES LABELS "kit;property"
    ENVIRONMENT "RC_PARAMS=${params}" TIMEOUT 900)
endfunction()

function(fairwire_add_poll_kit name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "CORPUS" "KIT;LIBRARIES")
  if(NOT arg_KIT)
    message(FATAL_ERROR "fairwire_add_poll_kit(${name}): KIT is required")
  endif()
  if(NOT arg_CORPUS)
    set(arg_CORPUS "${FAIRWIRE_POLL_KIT_CORPUS}")
  endif()
  if(TARGET fairwire::poll_checks)
    set(checks fairwire::poll_checks)
  else()
    set(checks fairwire_poll_checks)
  endif()
  add_library(${name}_poll_kit STATIC ${arg_KIT})
  target_link_libraries(${name}_poll_kit PUBLIC ${checks} ${arg_LIBRARIES})
  _fairwire_fuzz_flags(${name}_poll_kit)

  fairwire_add_fuzz_target(${name}_poll_fuzz
    SOURCES "${FAIRWIRE_KIT_DIR}/poll_kit_target.cc"
    LIBRARIES ${name}_poll_kit
    CORPUS "${arg_CORPUS}")
  target_compile_definitions(${name}_poll_fuzz_body PRIVATE
    FAIRWIRE_KIT_TARGET_NAME="${name}_poll_fuzz")

  _fairwire_kit_properties(${name}_poll_properties
    "${FAIRWIRE_KIT_DIR}/poll_kit_properties.cc" ${name}_poll_kit
    kit-properties.${name}_poll)
endfunction()

function(fairwire_add_decoder_kit name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "KNOWN_DIVERGENCES;CORPUS;DICT"
                        "ADAPTER;LIBRARIES")
  if(NOT arg_ADAPTER)
    message(FATAL_ERROR "fairwire_add_decoder_kit(${name}): ADAPTER is required")
  endif()
  if(NOT arg_KNOWN_DIVERGENCES)
    message(FATAL_ERROR "fairwire_add_decoder_kit(${name}): KNOWN_DIVERGENCES is "
                        "required (an empty file is a claim of no divergence)")
  endif()
  get_filename_component(known "${arg_KNOWN_DIVERGENCES}" ABSOLUTE)
  if(NOT EXISTS "${known}")
    message(FATAL_ERROR "fairwire_add_decoder_kit(${name}): no such file ${known}")
  endif()
  if(NOT arg_CORPUS)
    set(arg_CORPUS "${FAIRWIRE_KIT_CORPUS}")
  endif()
  # wire_decode_diff's dictionary, next to its corpus (corpus/dicts/), and
  # wire_packed_unpacked's corpus and dictionary beside them.
  get_filename_component(corpus_root "${FAIRWIRE_KIT_CORPUS}" DIRECTORY)
  if(NOT arg_DICT AND EXISTS "${corpus_root}/dicts/wire_decode_diff.dict")
    set(arg_DICT "${corpus_root}/dicts/wire_decode_diff.dict")
  endif()
  set(variants_dict "")
  if(EXISTS "${corpus_root}/dicts/wire_packed_unpacked.dict")
    set(variants_dict "${corpus_root}/dicts/wire_packed_unpacked.dict")
  endif()
  if(TARGET fairwire::wire_checks)
    set(checks fairwire::wire_checks)
  else()
    set(checks fairwire_wire_checks)
  endif()

  # The file, embedded: the fuzz binary must work where the source tree is
  # not (OSS-Fuzz runs it from $OUT).
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${known}")
  file(READ "${known}" text)
  string(FIND "${text}" ")fairwire_known\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${known} contains the text )fairwire_known\"")
  endif()
  set(embedded "${CMAKE_CURRENT_BINARY_DIR}/${name}_known_divergences.cc")
  file(CONFIGURE OUTPUT "${embedded}" @ONLY CONTENT
"// Generated by fairwire_add_decoder_kit from @known@.
#include \"fairwire/checks/wire_known_divergences.h\"

std::string_view fairwire::wire::kit::KnownDivergencesText() {
  return R\"fairwire_known(@text@)fairwire_known\";
}
")

  add_library(${name}_adapter STATIC ${arg_ADAPTER} "${embedded}")
  target_link_libraries(${name}_adapter PUBLIC ${checks} ${arg_LIBRARIES})
  _fairwire_fuzz_flags(${name}_adapter)

  fairwire_add_fuzz_target(${name}_decode_diff
    SOURCES "${FAIRWIRE_KIT_DIR}/decoder_diff.cc" "${FAIRWIRE_KIT_DIR}/kit_check.cc"
    LIBRARIES ${name}_adapter
    CORPUS "${arg_CORPUS}"
    DICT "${arg_DICT}")
  fairwire_add_fuzz_target(${name}_packed_unpacked
    SOURCES "${FAIRWIRE_KIT_DIR}/decoder_variants.cc"
            "${FAIRWIRE_KIT_DIR}/kit_check.cc" "${FAIRWIRE_KIT_MUTATOR}"
    LIBRARIES ${name}_adapter
    CORPUS "${corpus_root}/wire_packed_unpacked"
    DICT "${variants_dict}")
  foreach(target IN ITEMS ${name}_decode_diff ${name}_packed_unpacked)
    target_compile_definitions(${target}_body PRIVATE
      FAIRWIRE_KIT_TARGET_NAME="${target}")
    # A short smoke run reports the classes it meets outside the file
    # instead of failing on them: a third-party decoder's next class is its
    # finding, for a campaign to triage. Crashes and harness failures still
    # fail.
    foreach(engine IN ITEMS libfuzzer afl)
      if(TEST fuzz-smoke.${engine}.${target})
        set_tests_properties(fuzz-smoke.${engine}.${target} PROPERTIES
                             ENVIRONMENT FAIRWIRE_KIT_REPORT_ONLY=1)
      endif()
    endforeach()
  endforeach()

  add_executable(${name}_known_divergences
    "${FAIRWIRE_KIT_DIR}/known_divergences_main.cc")
  target_link_libraries(${name}_known_divergences PRIVATE ${name}_adapter)
  _fairwire_fuzz_flags(${name}_known_divergences)
  if(FAIRWIRE_BUILD_FUZZERS AND FAIRWIRE_FUZZ_ENGINE STREQUAL "libfuzzer")
    # Instrumented objects need libFuzzer's counters, not its main.
    target_link_options(${name}_known_divergences PRIVATE -fsanitize=fuzzer-no-link)
  endif()
  add_test(NAME known-divergences.${name} COMMAND ${name}_known_divergences)

  # The RapidCheck properties, where RapidCheck, GoogleTest and fairwire's
  # generators are found.
  _fairwire_kit_properties(${name}_properties
    "${FAIRWIRE_KIT_DIR}/decoder_properties.cc" ${name}_adapter
    kit-properties.${name})
  set_tests_properties(known-divergences.${name} PROPERTIES LABELS kit TIMEOUT 120)
endfunction()
