# The wire half of properties/: the fixed test schemas (generated libprotobuf
# code), the reference model, the WireCase scenario and the property suites.

# --- Fixed test schemas: properties/proto/*.proto ----------------------------
# Generated code is not ours: built without fairwire_options, include dir SYSTEM.
set(FAIRWIRE_TEST_PROTO_DIR ${CMAKE_CURRENT_SOURCE_DIR}/proto CACHE INTERNAL
  "Folder of the wire suite's fixed .proto schemas")
add_library(fairwire_test_proto STATIC
  ${CMAKE_CURRENT_SOURCE_DIR}/proto/fairwire_test.proto
  ${CMAKE_CURRENT_SOURCE_DIR}/proto/fairwire_test3.proto)
set(_fairwire_proto_out ${CMAKE_CURRENT_BINARY_DIR}/proto_gen)
file(MAKE_DIRECTORY ${_fairwire_proto_out})
# APPEND_PATH: protoc sees -I properties/proto only, so the files are named
# "fairwire_test.proto" in the generated pool and users include
# "fairwire_test.pb.h".
protobuf_generate(TARGET fairwire_test_proto LANGUAGE cpp APPEND_PATH
  PROTOC_OUT_DIR ${_fairwire_proto_out})
target_include_directories(fairwire_test_proto SYSTEM PUBLIC ${_fairwire_proto_out})
target_link_libraries(fairwire_test_proto PUBLIC protobuf::libprotobuf)
if(FAIRWIRE_SANITIZERS)
  # Same sanitizer ABI as the code that links it, without our warnings.
  list(JOIN FAIRWIRE_SANITIZERS "," _fairwire_proto_san)
  target_compile_options(fairwire_test_proto PRIVATE -fsanitize=${_fairwire_proto_san})
endif()

# --- Reference model and record tools (no RapidCheck, no libprotobuf) -------
add_library(fairwire_wire_model STATIC
  models/wire_model.cc
  scenarios/wire_records.cc
  scenarios/wire_case.cc
  scenarios/wire_schema_case.cc)
target_include_directories(fairwire_wire_model PUBLIC
  ${CMAKE_CURRENT_SOURCE_DIR}/models ${CMAKE_CURRENT_SOURCE_DIR}/scenarios)
target_compile_features(fairwire_wire_model PUBLIC cxx_std_20)
target_link_libraries(fairwire_wire_model PRIVATE fairwire_options)

# --- RapidCheck property suite (the oracle lives in fuzz/oracle) -----------
if(FAIRWIRE_BUILD_TESTS)
  fairwire_add_property_test(wire_properties
    SOURCES wire/wire_properties_test.cc wire/wire_gen.cc
    LIBRARIES fairwire_oracle fairwire_wire_model)
  target_include_directories(wire_properties PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/wire)
  # The typed bindings (fuzz/oracle/typed_subjects.h) against Decode and
  # libprotobuf's generated code.
  fairwire_add_property_test(wire_typed_properties
    SOURCES wire/wire_typed_properties_test.cc wire/wire_gen.cc
    LIBRARIES fairwire_oracle fairwire_wire_model)
  target_include_directories(wire_typed_properties PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/wire)
  fairwire_add_unit_test(wire_model_test
    SOURCES wire/wire_model_test.cc
    LIBRARIES fairwire_wire_model)
endif()

# --- Seed corpora: the committed generator and its up-to-date check ---------
# Regenerate: wire_make_seeds --write corpus   (from the source root)
add_executable(wire_make_seeds ${PROJECT_SOURCE_DIR}/corpus/gen/wire_make_seeds.cc)
target_link_libraries(wire_make_seeds PRIVATE fairwire_oracle fairwire_wire_model
                                              fairwire_options)
if(FAIRWIRE_BUILD_TESTS)
  add_test(NAME corpus.wire_seeds_up_to_date
           COMMAND wire_make_seeds --check ${PROJECT_SOURCE_DIR}/corpus)
  set_tests_properties(corpus.wire_seeds_up_to_date PROPERTIES LABELS corpus)
endif()
