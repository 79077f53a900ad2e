# fairwire_options: the warning, sanitizer, coverage and fuzzing-instrumentation
# flags every fairwire target is built with. Targets link it as
# $<BUILD_INTERFACE:fairwire_options>, so none of it leaks into the installed
# package.

add_library(fairwire_options INTERFACE)

if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(fairwire_options INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Wimplicit-fallthrough
    -Wnull-dereference -Wdouble-promotion)
  if(FAIRWIRE_WERROR)
    target_compile_options(fairwire_options INTERFACE -Werror)
  endif()
endif()

if(FAIRWIRE_SANITIZERS)
  list(JOIN FAIRWIRE_SANITIZERS "," _fairwire_san)
  target_compile_options(fairwire_options INTERFACE
    -fsanitize=${_fairwire_san} -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
  target_link_options(fairwire_options INTERFACE -fsanitize=${_fairwire_san})
endif()

if(FAIRWIRE_COVERAGE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "FAIRWIRE_COVERAGE needs clang (source-based coverage)")
  endif()
  target_compile_options(fairwire_options INTERFACE
    -fprofile-instr-generate -fcoverage-mapping)
  target_link_options(fairwire_options INTERFACE -fprofile-instr-generate)
endif()

# _fairwire_content_addressed_copy(PATH OUT): a copy of the file PATH in the
# build tree whose name carries the MD5 of its content, for flags that name
# a file whose content changes the object (-fsanitize-coverage-ignorelist).
# ccache hashes such a flag as text and, when its preprocessor mode answers,
# leaves -D options out of the hash: with the file's own path, an object
# built with an older list would come back from the cache. Editing PATH
# reconfigures (configure_file).
function(_fairwire_content_addressed_copy path out)
  file(MD5 "${path}" hash)
  get_filename_component(name "${path}" NAME_WE)
  get_filename_component(ext "${path}" EXT)
  set(copy "${PROJECT_BINARY_DIR}/fairwire-lists/${name}-${hash}${ext}")
  configure_file("${path}" "${copy}" COPYONLY)
  set(${out} "${copy}" PARENT_SCOPE)
endfunction()

# Coverage instrumentation for the fuzzing engine goes on every fairwire
# object, not only on the target's entry point, so the engine sees the core.
if(FAIRWIRE_BUILD_FUZZERS AND FAIRWIRE_FUZZ_ENGINE STREQUAL "libfuzzer")
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "The libfuzzer engine needs clang (use the libfuzzer preset)")
  endif()
  target_compile_options(fairwire_options INTERFACE -fsanitize=fuzzer-no-link)
  target_link_options(fairwire_options INTERFACE -fsanitize=fuzzer-no-link)
  # Not the standard library's functions (std_coverage_ignorelist.txt says
  # why).
  _fairwire_content_addressed_copy(
    "${CMAKE_CURRENT_LIST_DIR}/std_coverage_ignorelist.txt"
    _fairwire_std_ignorelist)
  target_compile_options(fairwire_options INTERFACE
    "-fsanitize-coverage-ignorelist=${_fairwire_std_ignorelist}")
endif()

# _fairwire_libfuzzer_source_option(OPTION SOURCES...): adds OPTION to these
# sources of the current folder, in libFuzzer builds with clang only.
function(_fairwire_libfuzzer_source_option option)
  if(FAIRWIRE_BUILD_FUZZERS AND FAIRWIRE_FUZZ_ENGINE STREQUAL "libfuzzer"
     AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS "${option}")
  endif()
endfunction()

# fairwire_no_fuzz_coverage(SOURCES...): under libFuzzer, compile these
# sources (of the current folder) without coverage instrumentation (edge
# counters and comparison tracing). For reference models and comparison code
# that run in full on every input whatever the code under test did: their
# edges only track input size, and tracing their comparisons took a third of
# each execution (poll_schedule, wire_decode_diff under perf). They still run
# unchanged, under the same sanitizers; the fuzzer is guided by the scenario
# decoders and the code under test.
function(fairwire_no_fuzz_coverage)
  _fairwire_libfuzzer_source_option(
    "-fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table"
    ${ARGN})
endfunction()

# fairwire_no_fuzz_cmp_tracing(SOURCES...): under libFuzzer, compile these
# sources with edge counters but without comparison tracing. For code under
# test whose input is decoded totally (every byte string is some scenario,
# each byte read modulo its range), so no comparison operand is a value the
# input has to spell: the poll composites and the harness that drives them.
# Tracing their comparisons was 28% of poll_schedule's time per input
# (perf, issue 12) and gives the fuzzer nothing to aim at.
function(fairwire_no_fuzz_cmp_tracing)
  _fairwire_libfuzzer_source_option("-fno-sanitize-coverage=trace-cmp" ${ARGN})
endfunction()

# fairwire_fuzz_coverage_ignorelist(LIST SOURCES...): under libFuzzer, these
# sources get no coverage instrumentation in the functions LIST names
# (clang's -fsanitize-coverage-ignorelist: `fun:` globs over mangled names).
# For a harness written as templates, instantiated in the same sources as
# the code under test: its loops run over every event of every input, so
# their counters only track input size, and each instantiation per
# composite type counts them again (poll_schedule, issue 12).
# LIST is passed as a copy named by its content
# (_fairwire_content_addressed_copy), so that neither ninja nor ccache keeps
# objects built with an older list.
function(fairwire_fuzz_coverage_ignorelist list)
  _fairwire_content_addressed_copy("${CMAKE_CURRENT_SOURCE_DIR}/${list}" path)
  _fairwire_libfuzzer_source_option("-fsanitize-coverage-ignorelist=${path}" ${ARGN})
endfunction()

# fairwire_fuzz_unsanitized(SOURCES...): in the libfuzzer and afl presets'
# builds (FAIRWIRE_SANITIZERS address and undefined), compile these sources
# (of the current folder) without the sanitizers. For the harness alone: the
# reference models, the digest of a run and the property checks, which read
# what the code under test did but are not under test. They run in full on
# every input, and under ASan and UBSan they cost four times what they cost
# without (poll_schedule's replay: 190 against 46 us per input, issue 12).
# The code under test and everything it calls back into (core/, an adapter's
# poller or decoder, a scripted child) keeps every sanitizer; so does the
# decoding of the fuzzer's bytes. The harness itself is checked under ASan
# and UBSan by the asan preset's suites, which also replay every corpus and
# regression file. Only whole sources: ASan does not inline across its
# boundary, so a function left out alone would call every inline helper it
# uses. Never under MemorySanitizer or ThreadSanitizer, which need every
# object instrumented, and not in an external engine's build (OSS-Fuzz's
# flags are its own).
function(fairwire_fuzz_unsanitized)
  _fairwire_fuzz_unsanitized_option(option)
  if(option)
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS "${option}")
  endif()
endfunction()

# _fairwire_fuzz_unsanitized_option(OUT): the option fairwire_fuzz_unsanitized
# adds in this build, or "" where it adds none.
function(_fairwire_fuzz_unsanitized_option out)
  set(${out} "" PARENT_SCOPE)
  if(NOT FAIRWIRE_BUILD_FUZZERS OR NOT FAIRWIRE_SANITIZERS
     OR NOT FAIRWIRE_FUZZ_ENGINE MATCHES "^(libfuzzer|afl)$")
    return()
  endif()
  foreach(sanitizer IN LISTS FAIRWIRE_SANITIZERS)
    if(NOT sanitizer MATCHES "^(address|undefined)$")
      return()
    endif()
  endforeach()
  list(JOIN FAIRWIRE_SANITIZERS "," sanitizers)
  set(${out} "-fno-sanitize=${sanitizers}" PARENT_SCOPE)
endfunction()

# fairwire_add_sanitized_functions_test(TARGET [+GLOB | -GLOB]...): where
# fairwire_fuzz_unsanitized is in force, a ctest (label unit) that the fuzz
# target TARGET's functions matching each +GLOB carry sanitizer checks and
# those matching each -GLOB carry none (fuzz/driver/sanitized_functions.py).
function(fairwire_add_sanitized_functions_test target)
  _fairwire_fuzz_unsanitized_option(option)
  if(NOT option)
    return()
  endif()
  find_program(FAIRWIRE_PYTHON3 NAMES python3)
  if(NOT FAIRWIRE_PYTHON3)
    message(FATAL_ERROR "fuzz-build.${target}.sanitized_functions needs python3")
  endif()
  add_test(NAME fuzz-build.${target}.sanitized_functions
    COMMAND ${FAIRWIRE_PYTHON3}
            ${PROJECT_SOURCE_DIR}/fuzz/driver/sanitized_functions.py
            $<TARGET_FILE:${target}> ${ARGN})
  set_tests_properties(fuzz-build.${target}.sanitized_functions PROPERTIES
    LABELS unit)
endfunction()
