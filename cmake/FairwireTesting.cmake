# Test helpers: every test is a ctest test with a label.
#   fairwire_add_unit_test(name SOURCES ... LIBRARIES ...)      label unit
#   fairwire_add_property_test(name SOURCES ... LIBRARIES ...)  label property
# Each gtest case becomes its own ctest test (gtest_discover_tests), so ctest
# names what failed. Property suites run with RC_PARAMS from
# FAIRWIRE_RC_PARAMS (at least 1000 successful cases per property in CI).
include(GoogleTest)

set(FAIRWIRE_RC_PARAMS "max_success=1000" CACHE STRING
  "RC_PARAMS for the property suites under ctest")

function(fairwire_add_unit_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LIBRARIES")
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE ${arg_LIBRARIES} GTest::gtest GTest::gtest_main
                                        fairwire_options)
  gtest_discover_tests(${name}
    TEST_PREFIX "${name}."
    PROPERTIES LABELS unit
    DISCOVERY_TIMEOUT 60)
endfunction()

function(fairwire_add_property_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LIBRARIES")
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE ${arg_LIBRARIES} rapidcheck rapidcheck_gtest
                                        GTest::gtest GTest::gtest_main fairwire_options)
  gtest_discover_tests(${name}
    TEST_PREFIX "${name}."
    PROPERTIES LABELS property ENVIRONMENT "RC_PARAMS=${FAIRWIRE_RC_PARAMS}" TIMEOUT 900
    DISCOVERY_TIMEOUT 60)
endfunction()
