// The decoder's access to the internals of Schema and Message (their hot
// paths' data), through accessor structs those classes befriend. Internal:
// used by core/src/wire only, not part of the public API.
#ifndef FAIRWIRE_WIRE_INTERNAL_ACCESS_H_
#define FAIRWIRE_WIRE_INTERNAL_ACCESS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "fairwire/wire/internal/enum_bitmap.h"
#include "fairwire/wire/message.h"
#include "fairwire/wire/schema.h"

namespace fairwire::wire::internal {

struct SchemaAccess {
  // The membership bitmap of enum `enum_index`, resolved once per run of
  // values by the closed-enum checks.
  static const EnumBitmap& Bitmap(const Schema& schema,
                                  std::int32_t enum_index) {
    return schema.enum_bitmaps_[static_cast<std::size_t>(enum_index)];
  }
};

struct MessageAccess {
  // The buffer of singular string field `field_index` kept aside by
  // Message::Clear() (an empty string with that capacity), or an empty
  // string.
  static std::string TakeSpareString(Message& msg, std::size_t field_index) {
    return field_index < msg.spare_strings_.size()
               ? std::move(msg.spare_strings_[field_index])
               : std::string();
  }
};

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_ACCESS_H_
