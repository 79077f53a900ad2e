# `fairwire decode` against `protoc --decode`: every sample input and every
# corpus file of the wire targets, accept-and-print or reject, byte for byte.
if(Protobuf_PROTOC_EXECUTABLE)
  add_test(NAME decode.matches_protoc
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/compare.sh
                   $<TARGET_FILE:fairwire-decode> ${Protobuf_PROTOC_EXECUTABLE}
                   ${PROJECT_SOURCE_DIR}
                   $<$<TARGET_EXISTS:fairwire-export-schema-case>:$<TARGET_FILE:fairwire-export-schema-case>>)
  set_tests_properties(decode.matches_protoc PROPERTIES LABELS "unit;decode" TIMEOUT 900)
endif()

# The committed binary inputs are what their generator makes.
find_program(FAIRWIRE_PYTHON3 python3)
if(FAIRWIRE_PYTHON3)
  add_test(NAME decode.inputs_up_to_date
           COMMAND ${FAIRWIRE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tests/make_inputs.py --check)
  set_tests_properties(decode.inputs_up_to_date PROPERTIES LABELS "unit;decode")
endif()
