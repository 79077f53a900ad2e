// A neutral description of message types for the wire reference model. It is
// plain data, deliberately separate from fairwire::wire::Schema, so that the
// model shares no code with the core. The oracle builds it from libprotobuf
// descriptors; the wire_schema_diff scenario builds it from fuzzer bytes.
#ifndef FAIRWIRE_MODELS_WIRE_MODEL_SCHEMA_H_
#define FAIRWIRE_MODELS_WIRE_MODEL_SCHEMA_H_

#include <cstdint>
#include <string>
#include <vector>

namespace fairwire::wire::model {

// Field kinds, as .proto spells them.
enum class Kind : std::uint8_t {
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

// Number of Kind values.
inline constexpr int kKindCount = 17;

// "int32", "message", ... as in a .proto file.
const char* KindName(Kind kind);

// 0 varint, 1 i64, 2 len, 5 i32: the wire type of an unpacked value.
int KindWireType(Kind kind);

// True for varint, i32 and i64 kinds (they may arrive packed).
bool KindPackable(Kind kind);

// An enum type: closed (proto2) or open (proto3), with its values.
struct EnumType {
  std::string name;
  bool closed = true;
  std::vector<std::int32_t> values;
  std::vector<std::string> value_names;  // parallel to values
};

// One field.
struct Field {
  std::uint32_t number = 1;
  std::string name;
  Kind kind = Kind::kInt32;
  bool repeated = false;
  bool packed = false;       // declared packed: how the model serializes
  bool check_utf8 = false;   // proto3 string
  bool has_presence = true;  // false: proto3 implicit presence
  int enum_index = -1;       // kEnum
  int message_index = -1;    // kMessage
};

// A message type; fields in any order (the model sorts when serializing).
struct MessageType {
  std::string name;
  std::vector<Field> fields;
};

// Message and enum types; message 0 is the root unless said otherwise.
struct Schema {
  std::vector<MessageType> messages;
  std::vector<EnumType> enums;
};

}  // namespace fairwire::wire::model

#endif  // FAIRWIRE_MODELS_WIRE_MODEL_SCHEMA_H_
