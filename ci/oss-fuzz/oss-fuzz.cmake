# oss-fuzz.check-build: ci/oss-fuzz/check-build, OSS-Fuzz's bad build check
# run offline for (libfuzzer, address), (libfuzzer, undefined) and
# (afl, address). Registered in test builds only, label oss-fuzz; it builds
# the fuzz targets three times (cached with ccache in out/oss-fuzz), so it is
# RUN_SERIAL. Leave it out with ctest -LE oss-fuzz, or configure with
# -DFAIRWIRE_OSS_FUZZ_CHECK=OFF.
option(FAIRWIRE_OSS_FUZZ_CHECK "Register ci/oss-fuzz/check-build under ctest (label oss-fuzz)" ON)

if(FAIRWIRE_BUILD_TESTS AND FAIRWIRE_OSS_FUZZ_CHECK)
  find_program(FAIRWIRE_AFL_CLANG_FAST afl-clang-fast++)
  find_program(FAIRWIRE_CLANG14 clang++-14)
  if(FAIRWIRE_AFL_CLANG_FAST AND FAIRWIRE_CLANG14)
    add_test(NAME oss-fuzz.check-build
             COMMAND ${PROJECT_SOURCE_DIR}/ci/oss-fuzz/check-build)
    # Its work folder (out/oss-fuzz) is per source tree, shared by every
    # preset: a second preset's run finds the first one's ccache entries.
    set_tests_properties(oss-fuzz.check-build PROPERTIES
      LABELS oss-fuzz TIMEOUT 3600 RUN_SERIAL ON)
  else()
    message(STATUS "oss-fuzz.check-build not registered: needs clang++-14 and afl-clang-fast++")
  endif()
endif()
