// Message: the decoder's output for a schema-described message. Typed storage
// per field: repeated scalars in contiguous arrays, strings and bytes as owned
// std::string, nested messages as Message. Unknown fields keep their exact
// bytes, in wire order.
#ifndef FAIRWIRE_WIRE_MESSAGE_H_
#define FAIRWIRE_WIRE_MESSAGE_H_

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "fairwire/wire/schema.h"

namespace fairwire::wire {

class Message;

namespace internal {
struct MessageAccess;
}  // namespace internal

// The values of one field, in the C++ type its kind decodes to:
//   int32 sint32 sfixed32 enum -> int32_t     int64 sint64 sfixed64 -> int64_t
//   uint32 fixed32             -> uint32_t    uint64 fixed64        -> uint64_t
//   bool -> uint8_t (0 or 1)   float -> float double -> double
//   string bytes -> std::string               message -> Message
// A singular field holds at most one value (present when it holds one).
using FieldValues =
    std::variant<std::vector<std::int32_t>, std::vector<std::int64_t>,
                 std::vector<std::uint32_t>, std::vector<std::uint64_t>,
                 std::vector<std::uint8_t>, std::vector<float>,
                 std::vector<double>, std::vector<std::string>,
                 std::vector<Message>>;

class Message {
 public:
  // An empty message of type `message_index` in `schema`. The schema must
  // outlive the message.
  Message(const Schema& schema, std::int32_t message_index);

  const Schema& schema() const { return *schema_; }
  std::int32_t message_index() const { return message_index_; }
  const MessageDef& def() const { return schema_->messages()[message_index_]; }

  // The values of field `field_index` (an index into def().fields).
  const FieldValues& values(std::size_t field_index) const {
    return fields_[field_index];
  }
  FieldValues& mutable_values(std::size_t field_index) {
    return fields_[field_index];
  }

  // Typed view: the values of a field whose kind decodes to T.
  template <typename T>
  std::span<const T> Get(std::size_t field_index) const {
    return std::get<std::vector<T>>(fields_[field_index]);
  }

  // Unknown fields (and closed-enum values outside their enum), as the exact
  // bytes of their records, in wire order.
  const std::string& unknown_fields() const { return unknown_; }
  std::string& mutable_unknown_fields() { return unknown_; }

  // Empties every field and the unknown fields, keeping capacity (also the
  // buffer of a singular string, kept aside for the next value).
  void Clear();

 private:
  friend struct internal::MessageAccess;

  const Schema* schema_;
  std::int32_t message_index_;
  std::vector<FieldValues> fields_;
  std::string unknown_;
  // Per field index: a singular string's buffer kept by Clear().
  std::vector<std::string> spare_strings_;
};

}  // namespace fairwire::wire

#endif  // FAIRWIRE_WIRE_MESSAGE_H_
