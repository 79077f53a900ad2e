// Schema tables: what the decoder knows of a message type. Built by hand with
// SchemaBuilder, or from a libprotobuf Descriptor by fairwire::protobuf
// (fairwire/protobuf/schema_from_descriptor.h). Misuse (a duplicate field
// number, a packed string, a dangling enum index) is rejected by Build(),
// never later by the decoder.
#ifndef FAIRWIRE_WIRE_SCHEMA_H_
#define FAIRWIRE_WIRE_SCHEMA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fairwire::wire {

// The wire types of the encoding (values as on the wire).
enum class WireType : std::uint8_t {
  kVarint = 0,
  kI64 = 1,
  kLen = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kI32 = 5,
};

// Field kinds, one per .proto scalar type plus enum, string, bytes, message.
enum class FieldKind : std::uint8_t {
  kInt32,
  kInt64,
  kUint32,
  kUint64,
  kSint32,
  kSint64,
  kBool,
  kEnum,
  kFixed32,
  kFixed64,
  kSfixed32,
  kSfixed64,
  kFloat,
  kDouble,
  kString,
  kBytes,
  kMessage,
};

// "int32", "sfixed64", "message", ... as spelled in a .proto file.
std::string_view ToString(FieldKind kind);

// The wire type a field of this kind is written with when not packed.
WireType NaturalWireType(FieldKind kind);

// True for kinds that may be packed: the VARINT, I32 and I64 scalars and enums.
bool IsPackable(FieldKind kind);

// An enum type. Closed (proto2) enums send values outside `values` to the
// unknown fields; open (proto3) enums keep every value.
struct EnumDef {
  std::string name;  // full name, e.g. "fairwire.test.Color"
  bool closed = false;
  std::vector<std::int32_t> values;      // sorted, unique
  std::vector<std::string> value_names;  // parallel to `values`
};

// One field of a message type.
struct FieldDef {
  std::uint32_t number = 0;  // 1 .. 2^29-1
  std::string name;          // as in the .proto (for text format)
  FieldKind kind = FieldKind::kInt32;
  bool repeated = false;
  bool packed = false;              // declared packed (how Serialize writes it)
  bool validate_utf8 = false;       // proto3 string: reject invalid UTF-8
  bool has_presence = true;         // false: proto3 implicit presence (a zero
                                    // value is not serialized)
  std::int32_t enum_index = -1;     // kEnum: index into Schema::enums()
  std::int32_t message_index = -1;  // kMessage: index into Schema::messages()
};

// A message type: fields in ascending field-number order.
struct MessageDef {
  std::string name;  // full name, e.g. "fairwire.test.Scalars"
  std::vector<FieldDef> fields;
};

namespace internal {
struct EnumBitmap;
struct SchemaAccess;
}  // namespace internal

// Why SchemaBuilder::Build() refused a schema.
struct SchemaError {
  std::string message;
};

// An immutable, validated set of message and enum types.
class Schema {
 public:
  // An empty schema (no types); SchemaBuilder::Build() makes real ones.
  Schema();
  Schema(const Schema& other);
  Schema(Schema&& other) noexcept;
  Schema& operator=(const Schema& other);
  Schema& operator=(Schema&& other) noexcept;
  ~Schema();

  const std::vector<MessageDef>& messages() const { return messages_; }
  const std::vector<EnumDef>& enums() const { return enums_; }

  // The index of the message named `full_name`, or -1.
  std::int32_t FindMessage(std::string_view full_name) const;

  // The field of message `message_index` with this number, or nullptr.
  // O(1) for small field numbers, a binary search otherwise.
  const FieldDef* FindField(std::int32_t message_index,
                            std::uint32_t number) const;

  // True if `value` is one of the enum's values. O(1) for values near the
  // enum's smallest one, a binary search for far outliers.
  bool EnumContains(std::int32_t enum_index, std::int32_t value) const;

 private:
  friend class SchemaBuilder;
  friend struct internal::SchemaAccess;

  std::vector<MessageDef> messages_;
  std::vector<EnumDef> enums_;
  // Per message: field index + 1 by number, for numbers below the size.
  std::vector<std::vector<std::uint16_t>> dense_lookup_;
  // Per enum: the membership bitmap EnumContains and the decoder read.
  std::vector<internal::EnumBitmap> enum_bitmaps_;
};

// Builds a Schema. Indices returned by AddEnum/AddMessage are the ones
// FieldDef::enum_index and FieldDef::message_index refer to.
//
//   SchemaBuilder b;
//   int color = b.AddEnum({"t.Color", /*closed=*/true, {0, 1}, {"RED",
//   "BLUE"}}); int msg = b.AddMessage("t.M"); b.AddField(msg, {.number = 1,
//   .name = "ids", .kind = FieldKind::kInt64,
//                    .repeated = true, .packed = true});
//   std::optional<Schema> schema = b.Build(&error);
class SchemaBuilder {
 public:
  std::int32_t AddEnum(EnumDef def);
  std::int32_t AddMessage(std::string full_name);
  void AddField(std::int32_t message_index, FieldDef field);

  // The validated schema, or nullopt with `*error` set (when non-null):
  // duplicate or out-of-range field numbers, packed on a non-packable or
  // non-repeated field, utf8 validation on a non-string, dangling indices,
  // an enum whose values are not sorted and unique.
  std::optional<Schema> Build(SchemaError* error = nullptr) &&;

 private:
  std::vector<MessageDef> messages_;
  std::vector<EnumDef> enums_;
};

}  // namespace fairwire::wire

#endif  // FAIRWIRE_WIRE_SCHEMA_H_
