#include "fairwire/wire/message.h"

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace fairwire::wire {
namespace {

// The alternative of FieldValues that a field of `kind` holds: the C++ type
// it decodes to (message.h).
constexpr std::size_t AlternativeOf(FieldKind kind) {
  switch (kind) {
    case FieldKind::kInt32:
    case FieldKind::kSint32:
    case FieldKind::kSfixed32:
    case FieldKind::kEnum:
      return 0;  // std::int32_t
    case FieldKind::kInt64:
    case FieldKind::kSint64:
    case FieldKind::kSfixed64:
      return 1;  // std::int64_t
    case FieldKind::kUint32:
    case FieldKind::kFixed32:
      return 2;  // std::uint32_t
    case FieldKind::kUint64:
    case FieldKind::kFixed64:
      return 3;  // std::uint64_t
    case FieldKind::kBool:
      return 4;  // std::uint8_t
    case FieldKind::kFloat:
      return 5;
    case FieldKind::kDouble:
      return 6;
    case FieldKind::kString:
    case FieldKind::kBytes:
      return 7;  // std::string
    case FieldKind::kMessage:
      return 8;  // Message
  }
  return 0;
}

template <std::size_t I, typename T>
constexpr bool kHolds =
    std::is_same_v<std::variant_alternative_t<I, FieldValues>, std::vector<T>>;
static_assert(kHolds<0, std::int32_t> && kHolds<1, std::int64_t> &&
              kHolds<2, std::uint32_t> && kHolds<3, std::uint64_t> &&
              kHolds<4, std::uint8_t> && kHolds<5, float> &&
              kHolds<6, double> && kHolds<7, std::string> &&
              kHolds<8, Message>);

// Makes `values` (alternative 0, empty) the empty list of alternative `index`.
template <std::size_t... I>
void EmplaceEmpty(FieldValues& values, std::size_t index,
                  std::index_sequence<I...>) {
  ((index == I ? (void)values.emplace<I>() : (void)0), ...);
}

}  // namespace

Message::Message(const Schema& schema, std::int32_t message_index)
    : schema_(&schema), message_index_(message_index) {
  const std::vector<FieldDef>& defs = def().fields;
  // Every field starts as an empty list of alternative 0, and only fields
  // of another type are changed: a message is built once per nested record,
  // and building each field's list by value was a third of a decode under
  // the fuzzing sanitizers (issue 12).
  fields_.resize(defs.size());
  for (std::size_t i = 0; i < defs.size(); ++i) {
    const std::size_t index = AlternativeOf(defs[i].kind);
    if (index != 0) {
      EmplaceEmpty(
          fields_[i], index,
          std::make_index_sequence<std::variant_size_v<FieldValues>>());
    }
  }
}

void Message::Clear() {
  const std::vector<FieldDef>& defs = def().fields;
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    FieldValues& values = fields_[i];
    auto* strings = std::get_if<std::vector<std::string>>(&values);
    if (strings != nullptr && strings->size() == 1 && !defs[i].repeated) {
      // Kept aside (as libprotobuf keeps a cleared string's buffer) for the
      // decoder to reuse through internal::MessageAccess::TakeSpareString.
      if (spare_strings_.size() < fields_.size()) {
        spare_strings_.resize(fields_.size());
      }
      spare_strings_[i].swap((*strings)[0]);
      spare_strings_[i].clear();
    }
    std::visit([](auto& v) { v.clear(); }, values);
  }
  unknown_.clear();
}

}  // namespace fairwire::wire
