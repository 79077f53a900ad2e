# `fairwire decode` against `protoc --decode`: every sample input and every
# corpus file of the wire targets, accept-and-print or reject, byte for byte.
# Each executable is its own argument, so that `fairwire mutate` finds and
# builds it (runner/mutate.py, test_binaries).
find_program(FAIRWIRE_PYTHON3 python3)
# protoc's answers are kept in FAIRWIRE_PROTOC_ANSWERS_DIR, keyed by protoc's
# identity, the .proto files, the type and the payload: never a stale one.
if(Protobuf_PROTOC_EXECUTABLE AND FAIRWIRE_PYTHON3)
  add_test(NAME decode.matches_protoc
           COMMAND ${FAIRWIRE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tests/compare.py
                   --decode $<TARGET_FILE:fairwire-decode>
                   --protoc ${Protobuf_PROTOC_EXECUTABLE}
                   --source ${PROJECT_SOURCE_DIR}
                   --cache ${FAIRWIRE_PROTOC_ANSWERS_DIR}
                   --export-schema-case $<TARGET_FILE:fairwire-export-schema-case>)
  # Thousands of inputs: start it first, so it does not run alone at the end.
  set_tests_properties(decode.matches_protoc PROPERTIES
                       LABELS "unit;decode" TIMEOUT 900 COST 10000)
endif()

# The committed binary inputs are what their generator makes.
if(FAIRWIRE_PYTHON3)
  add_test(NAME decode.inputs_up_to_date
           COMMAND ${FAIRWIRE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tests/make_inputs.py --check)
  set_tests_properties(decode.inputs_up_to_date PROPERTIES LABELS "unit;decode")
endif()
