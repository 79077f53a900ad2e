#include "fairwire/protobuf/schema_from_descriptor.h"

#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace fairwire::protobuf {
namespace {

using google::protobuf::DescriptorPool;
using google::protobuf::FileDescriptorProto;
using wire::FieldDef;
using wire::FieldKind;

// Adds a file, written as a text-format FileDescriptorProto, to `pool`.
void AddFile(DescriptorPool& pool, const std::string& text) {
  FileDescriptorProto file;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &file));
  ASSERT_NE(pool.BuildFile(file), nullptr) << text;
}

const FieldDef& FieldNamed(const wire::Schema& schema, std::int32_t message,
                           const std::string& name) {
  for (const FieldDef& field : schema.messages()[message].fields) {
    if (field.name == name) return field;
  }
  ADD_FAILURE() << "no field " << name;
  static const FieldDef kNone;
  return kNone;
}

constexpr const char* kProto2 = R"pb(
  name: "p2.proto"
  package: "p2"
  syntax: "proto2"
  enum_type {
    name: "Color"
    value { name: "RED" number: 0 }
    value { name: "GREEN" number: 5 }
    value { name: "VERDANT" number: 5 }
    value { name: "BLUE" number: -3 }
    options { allow_alias: true }
  }
  message_type {
    name: "All"
    field { name: "f_double" number: 1 label: LABEL_OPTIONAL type: TYPE_DOUBLE }
    field { name: "f_float" number: 2 label: LABEL_OPTIONAL type: TYPE_FLOAT }
    field { name: "f_int64" number: 3 label: LABEL_OPTIONAL type: TYPE_INT64 }
    field { name: "f_uint64" number: 4 label: LABEL_OPTIONAL type: TYPE_UINT64 }
    field { name: "f_int32" number: 5 label: LABEL_OPTIONAL type: TYPE_INT32 }
    field {
      name: "f_fixed64"
      number: 6
      label: LABEL_OPTIONAL
      type: TYPE_FIXED64
    }
    field {
      name: "f_fixed32"
      number: 7
      label: LABEL_OPTIONAL
      type: TYPE_FIXED32
    }
    field { name: "f_bool" number: 8 label: LABEL_OPTIONAL type: TYPE_BOOL }
    field { name: "f_string" number: 9 label: LABEL_OPTIONAL type: TYPE_STRING }
    field { name: "f_bytes" number: 12 label: LABEL_OPTIONAL type: TYPE_BYTES }
    field {
      name: "f_uint32"
      number: 13
      label: LABEL_OPTIONAL
      type: TYPE_UINT32
    }
    field {
      name: "f_sfixed32"
      number: 15
      label: LABEL_OPTIONAL
      type: TYPE_SFIXED32
    }
    field {
      name: "f_sfixed64"
      number: 16
      label: LABEL_OPTIONAL
      type: TYPE_SFIXED64
    }
    field {
      name: "f_sint32"
      number: 17
      label: LABEL_OPTIONAL
      type: TYPE_SINT32
    }
    field {
      name: "f_sint64"
      number: 18
      label: LABEL_OPTIONAL
      type: TYPE_SINT64
    }
    field {
      name: "f_color"
      number: 14
      label: LABEL_OPTIONAL
      type: TYPE_ENUM
      type_name: ".p2.Color"
    }
    field {
      name: "f_child"
      number: 10
      label: LABEL_OPTIONAL
      type: TYPE_MESSAGE
      type_name: ".p2.All"
    }
    field {
      name: "r_packed"
      number: 20
      label: LABEL_REPEATED
      type: TYPE_SINT64
      options { packed: true }
    }
    field {
      name: "r_unpacked"
      number: 21
      label: LABEL_REPEATED
      type: TYPE_FIXED32
    }
    field {
      name: "r_leaf"
      number: 22
      label: LABEL_REPEATED
      type: TYPE_MESSAGE
      type_name: ".p2.Leaf"
    }
  }
  message_type {
    name: "Leaf"
    field {
      name: "colors"
      number: 1
      label: LABEL_REPEATED
      type: TYPE_ENUM
      type_name: ".p2.Color"
    }
  }
  message_type {
    name: "Unreached"
    field { name: "x" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 }
  }
)pb";

constexpr const char* kProto3 = R"pb(
  name: "p3.proto"
  package: "p3"
  syntax: "proto3"
  enum_type {
    name: "Mood"
    value { name: "MOOD_UNSPECIFIED" number: 0 }
    value { name: "HAPPY" number: 1 }
  }
  message_type {
    name: "Three"
    field { name: "name" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
    field { name: "count" number: 2 label: LABEL_OPTIONAL type: TYPE_INT32 }
    field {
      name: "maybe"
      number: 3
      label: LABEL_OPTIONAL
      type: TYPE_INT32
      oneof_index: 0
      proto3_optional: true
    }
    field { name: "ids" number: 4 label: LABEL_REPEATED type: TYPE_INT64 }
    field {
      name: "raw"
      number: 5
      label: LABEL_REPEATED
      type: TYPE_DOUBLE
      options { packed: false }
    }
    field {
      name: "mood"
      number: 6
      label: LABEL_OPTIONAL
      type: TYPE_ENUM
      type_name: ".p3.Mood"
    }
    field { name: "words" number: 7 label: LABEL_REPEATED type: TYPE_STRING }
    field {
      name: "child"
      number: 8
      label: LABEL_OPTIONAL
      type: TYPE_MESSAGE
      type_name: ".p3.Three"
    }
    oneof_decl { name: "_maybe" }
  }
)pb";

constexpr const char* kMixed = R"pb(
  name: "mixed.proto"
  package: "mixed"
  syntax: "proto2"
  dependency: "p3.proto"
  message_type {
    name: "UsesOpenEnum"
    field {
      name: "mood"
      number: 1
      label: LABEL_OPTIONAL
      type: TYPE_ENUM
      type_name: ".p3.Mood"
    }
    field {
      name: "three"
      number: 2
      label: LABEL_OPTIONAL
      type: TYPE_MESSAGE
      type_name: ".p3.Three"
    }
  }
)pb";

class SchemaFromDescriptorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AddFile(pool_, kProto2);
    AddFile(pool_, kProto3);
    AddFile(pool_, kMixed);
  }

  DescriptorSchema Build(const std::string& root) {
    const google::protobuf::Descriptor* descriptor =
        pool_.FindMessageTypeByName(root);
    EXPECT_NE(descriptor, nullptr);
    std::string error;
    std::optional<DescriptorSchema> built =
        BuildDescriptorSchema(*descriptor, &error);
    EXPECT_TRUE(built.has_value()) << error;
    return std::move(*built);
  }

  DescriptorPool pool_;
};

TEST_F(SchemaFromDescriptorTest, EveryScalarTypeMapsToItsKind) {
  DescriptorSchema built = Build("p2.All");
  const wire::Schema& s = built.schema;
  EXPECT_EQ(FieldNamed(s, 0, "f_double").kind, FieldKind::kDouble);
  EXPECT_EQ(FieldNamed(s, 0, "f_float").kind, FieldKind::kFloat);
  EXPECT_EQ(FieldNamed(s, 0, "f_int64").kind, FieldKind::kInt64);
  EXPECT_EQ(FieldNamed(s, 0, "f_uint64").kind, FieldKind::kUint64);
  EXPECT_EQ(FieldNamed(s, 0, "f_int32").kind, FieldKind::kInt32);
  EXPECT_EQ(FieldNamed(s, 0, "f_fixed64").kind, FieldKind::kFixed64);
  EXPECT_EQ(FieldNamed(s, 0, "f_fixed32").kind, FieldKind::kFixed32);
  EXPECT_EQ(FieldNamed(s, 0, "f_bool").kind, FieldKind::kBool);
  EXPECT_EQ(FieldNamed(s, 0, "f_string").kind, FieldKind::kString);
  EXPECT_EQ(FieldNamed(s, 0, "f_bytes").kind, FieldKind::kBytes);
  EXPECT_EQ(FieldNamed(s, 0, "f_uint32").kind, FieldKind::kUint32);
  EXPECT_EQ(FieldNamed(s, 0, "f_sfixed32").kind, FieldKind::kSfixed32);
  EXPECT_EQ(FieldNamed(s, 0, "f_sfixed64").kind, FieldKind::kSfixed64);
  EXPECT_EQ(FieldNamed(s, 0, "f_sint32").kind, FieldKind::kSint32);
  EXPECT_EQ(FieldNamed(s, 0, "f_sint64").kind, FieldKind::kSint64);
  EXPECT_EQ(FieldNamed(s, 0, "f_color").kind, FieldKind::kEnum);
  EXPECT_EQ(FieldNamed(s, 0, "f_child").kind, FieldKind::kMessage);
}

TEST_F(SchemaFromDescriptorTest, FieldsAreInAscendingNumberOrder) {
  DescriptorSchema built = Build("p2.All");
  const std::vector<FieldDef>& fields = built.schema.messages()[0].fields;
  ASSERT_EQ(fields.size(), 20u);
  for (std::size_t i = 1; i < fields.size(); ++i) {
    EXPECT_LT(fields[i - 1].number, fields[i].number);
  }
  EXPECT_EQ(built.schema.FindField(0, 14)->name, "f_color");
}

TEST_F(SchemaFromDescriptorTest, RootIsIndexZeroAndOnlyReachableTypesAppear) {
  DescriptorSchema built = Build("p2.All");
  ASSERT_EQ(built.schema.messages().size(), 2u);
  EXPECT_EQ(built.schema.messages()[0].name, "p2.All");
  EXPECT_EQ(built.schema.FindMessage("p2.Leaf"), 1);
  EXPECT_EQ(built.schema.FindMessage("p2.Unreached"), -1);
  EXPECT_EQ(built.messages[1]->full_name(), "p2.Leaf");
}

TEST_F(SchemaFromDescriptorTest, RecursiveFieldRefersBackToTheSameIndex) {
  DescriptorSchema built = Build("p2.All");
  EXPECT_EQ(FieldNamed(built.schema, 0, "f_child").message_index, 0);
  EXPECT_EQ(FieldNamed(built.schema, 0, "r_leaf").message_index, 1);
}

TEST_F(SchemaFromDescriptorTest, SharedEnumGetsOneDefinition) {
  DescriptorSchema built = Build("p2.All");
  ASSERT_EQ(built.schema.enums().size(), 1u);
  EXPECT_EQ(FieldNamed(built.schema, 0, "f_color").enum_index, 0);
  EXPECT_EQ(FieldNamed(built.schema, 1, "colors").enum_index, 0);
}

TEST_F(SchemaFromDescriptorTest, Proto2PackedOptionDecidesPacked) {
  DescriptorSchema built = Build("p2.All");
  EXPECT_TRUE(FieldNamed(built.schema, 0, "r_packed").packed);
  EXPECT_FALSE(FieldNamed(built.schema, 0, "r_unpacked").packed);
  EXPECT_TRUE(FieldNamed(built.schema, 0, "r_unpacked").repeated);
  EXPECT_FALSE(FieldNamed(built.schema, 0, "f_int32").repeated);
}

TEST_F(SchemaFromDescriptorTest, Proto3ScalarsPackByDefaultUnlessDisabled) {
  DescriptorSchema built = Build("p3.Three");
  EXPECT_TRUE(FieldNamed(built.schema, 0, "ids").packed);
  EXPECT_FALSE(FieldNamed(built.schema, 0, "raw").packed);
  EXPECT_FALSE(FieldNamed(built.schema, 0, "words").packed);
}

TEST_F(SchemaFromDescriptorTest, OnlyProto3StringsValidateUtf8) {
  DescriptorSchema three = Build("p3.Three");
  EXPECT_TRUE(FieldNamed(three.schema, 0, "name").validate_utf8);
  EXPECT_TRUE(FieldNamed(three.schema, 0, "words").validate_utf8);
  EXPECT_FALSE(FieldNamed(three.schema, 0, "count").validate_utf8);
  DescriptorSchema two = Build("p2.All");
  EXPECT_FALSE(FieldNamed(two.schema, 0, "f_string").validate_utf8);
  EXPECT_FALSE(FieldNamed(two.schema, 0, "f_bytes").validate_utf8);
}

TEST_F(SchemaFromDescriptorTest, Proto3ImplicitFieldsHaveNoPresence) {
  DescriptorSchema built = Build("p3.Three");
  EXPECT_FALSE(FieldNamed(built.schema, 0, "name").has_presence);
  EXPECT_FALSE(FieldNamed(built.schema, 0, "count").has_presence);
  EXPECT_FALSE(FieldNamed(built.schema, 0, "mood").has_presence);
  EXPECT_TRUE(FieldNamed(built.schema, 0, "maybe").has_presence);
  EXPECT_TRUE(FieldNamed(built.schema, 0, "child").has_presence);
  DescriptorSchema two = Build("p2.All");
  EXPECT_TRUE(FieldNamed(two.schema, 0, "f_int32").has_presence);
}

TEST_F(SchemaFromDescriptorTest, Proto2EnumIsClosedProto3EnumIsOpen) {
  DescriptorSchema two = Build("p2.All");
  EXPECT_TRUE(two.schema.enums()[0].closed);
  DescriptorSchema three = Build("p3.Three");
  ASSERT_EQ(three.schema.enums().size(), 1u);
  EXPECT_FALSE(three.schema.enums()[0].closed);
}

TEST_F(SchemaFromDescriptorTest, OpenEnumUsedFromProto2FileIsClosedThere) {
  DescriptorSchema built = Build("mixed.UsesOpenEnum");
  const wire::Schema& s = built.schema;
  ASSERT_EQ(s.enums().size(), 2u);
  const FieldDef& from_proto2 = FieldNamed(s, 0, "mood");
  const FieldDef& from_proto3 = FieldNamed(s, 1, "mood");
  EXPECT_TRUE(s.enums()[from_proto2.enum_index].closed);
  EXPECT_FALSE(s.enums()[from_proto3.enum_index].closed);
  EXPECT_EQ(built.enums[0], built.enums[1]);
}

TEST_F(SchemaFromDescriptorTest, EnumValuesSortedWithFirstDeclaredAliasName) {
  DescriptorSchema built = Build("p2.All");
  const wire::EnumDef& color = built.schema.enums()[0];
  EXPECT_EQ(color.name, "p2.Color");
  EXPECT_EQ(color.values, (std::vector<std::int32_t>{-3, 0, 5}));
  EXPECT_EQ(color.value_names,
            (std::vector<std::string>{"BLUE", "RED", "GREEN"}));
  EXPECT_TRUE(built.schema.EnumContains(0, 5));
  EXPECT_FALSE(built.schema.EnumContains(0, 1));
}

TEST_F(SchemaFromDescriptorTest, SchemaFromDescriptorReportsRootIndex) {
  std::int32_t root = -1;
  std::optional<wire::Schema> schema =
      SchemaFromDescriptor(*pool_.FindMessageTypeByName("p3.Three"), &root);
  ASSERT_TRUE(schema.has_value());
  EXPECT_EQ(root, 0);
  EXPECT_EQ(schema->messages()[root].name, "p3.Three");
}

TEST(SchemaFromDescriptorGroups, GroupFieldIsRejectedNamingTheField) {
  DescriptorPool pool;
  AddFile(pool, R"pb(
    name: "g.proto"
    package: "g"
    syntax: "proto2"
    message_type {
      name: "Outer"
      field {
        name: "inner"
        number: 1
        label: LABEL_OPTIONAL
        type: TYPE_GROUP
        type_name: ".g.Outer.Inner"
      }
      nested_type { name: "Inner" }
    }
  )pb");
  std::string error;
  std::int32_t root = -1;
  EXPECT_FALSE(SchemaFromDescriptor(*pool.FindMessageTypeByName("g.Outer"),
                                    &root, &error)
                   .has_value());
  EXPECT_NE(error.find("g.Outer.inner"), std::string::npos) << error;
  EXPECT_NE(error.find("group"), std::string::npos) << error;
}

// Message and enum indices follow field-number order, not the order the
// fields are declared in: two files that differ only in declaration order
// give the same schema.
TEST(SchemaFromDescriptorOrder, DeclarationOrderDoesNotChangeTheSchema) {
  const std::string head = R"pb(
    name: "o.proto"
    package: "o"
    syntax: "proto2"
    enum_type {
      name: "E1"
      value { name: "E1_A" number: 0 }
    }
    enum_type {
      name: "E2"
      value { name: "E2_A" number: 0 }
    }
    message_type { name: "A" }
    message_type { name: "B" }
  )pb";
  // One optional field of message or enum type `type_name`.
  auto field = [](const std::string& name, int number, const char* type,
                  const std::string& type_name) {
    return "field { name: \"" + name + "\" number: " + std::to_string(number) +
           " label: LABEL_OPTIONAL type: " + type + " type_name: \"" +
           type_name + "\" } ";
  };
  const std::string a = field("a", 2, "TYPE_MESSAGE", ".o.A");
  const std::string b = field("b", 1, "TYPE_MESSAGE", ".o.B");
  const std::string e1 = field("e1", 4, "TYPE_ENUM", ".o.E1");
  const std::string e2 = field("e2", 3, "TYPE_ENUM", ".o.E2");
  for (const std::string& fields : {b + a + e2 + e1, a + e1 + b + e2}) {
    DescriptorPool pool;
    AddFile(pool, head + "message_type { name: \"Root\" " + fields + " }");
    const google::protobuf::Descriptor* root =
        pool.FindMessageTypeByName("o.Root");
    ASSERT_NE(root, nullptr);
    std::optional<DescriptorSchema> built = BuildDescriptorSchema(*root);
    ASSERT_TRUE(built.has_value()) << fields;
    const wire::Schema& s = built->schema;
    std::vector<std::string> messages;
    for (const wire::MessageDef& m : s.messages()) messages.push_back(m.name);
    EXPECT_EQ(messages, (std::vector<std::string>{"o.Root", "o.B", "o.A"}))
        << fields;
    std::vector<std::string> enums;
    for (const wire::EnumDef& e : s.enums()) enums.push_back(e.name);
    EXPECT_EQ(enums, (std::vector<std::string>{"o.E2", "o.E1"})) << fields;
    EXPECT_EQ(FieldNamed(s, 0, "b").message_index, 1) << fields;
    EXPECT_EQ(FieldNamed(s, 0, "a").message_index, 2) << fields;
    EXPECT_EQ(FieldNamed(s, 0, "e2").enum_index, 0) << fields;
    EXPECT_EQ(FieldNamed(s, 0, "e1").enum_index, 1) << fields;
  }
}

// A valid descriptor that SchemaBuilder still refuses (a message of 65535
// fields, past the builder's limit) fails with the builder's reason,
// prefixed by the root's name, in *error; with no error string it fails
// just the same.
TEST(SchemaFromDescriptorLimits, SchemaBuilderRefusalIsReported) {
  FileDescriptorProto file;
  file.set_name("big.proto");
  file.set_package("big");
  file.set_syntax("proto2");
  google::protobuf::DescriptorProto* message = file.add_message_type();
  message->set_name("Big");
  // Numbers 1.. upwards, around the range 19000-19999 that libprotobuf
  // reserves.
  for (int i = 1; i <= 0xFFFF; ++i) {
    const int number = i < 19000 ? i : i + 1000;
    google::protobuf::FieldDescriptorProto* field = message->add_field();
    field->set_name("f" + std::to_string(number));
    field->set_number(number);
    field->set_label(google::protobuf::FieldDescriptorProto::LABEL_OPTIONAL);
    field->set_type(google::protobuf::FieldDescriptorProto::TYPE_BOOL);
  }
  DescriptorPool pool;
  ASSERT_NE(pool.BuildFile(file), nullptr);
  const google::protobuf::Descriptor* big =
      pool.FindMessageTypeByName("big.Big");
  ASSERT_NE(big, nullptr);
  std::string error;
  EXPECT_FALSE(BuildDescriptorSchema(*big, &error).has_value());
  EXPECT_EQ(error.rfind("big.Big: ", 0), 0u) << error;
  EXPECT_NE(error.find("too many fields"), std::string::npos) << error;
  EXPECT_FALSE(BuildDescriptorSchema(*big).has_value());
}

}  // namespace
}  // namespace fairwire::protobuf
