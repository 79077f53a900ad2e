// The hand-built schema the wire unit tests decode against.
#ifndef FAIRWIRE_CORE_SRC_WIRE_TEST_SCHEMA_H_
#define FAIRWIRE_CORE_SRC_WIRE_TEST_SCHEMA_H_

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/wire/schema.h"

namespace fairwire::wire::testing {

// Field numbers of message kRoot ("t.M").
enum RootField : std::uint32_t {
  kInt32 = 1,        // optional int32
  kPackedInt64 = 2,  // repeated int64, packed
  kSint32 = 3,       // repeated sint32
  kBool = 4,         // repeated bool
  kColors = 5,       // repeated closed enum Color
  kFixed32 = 6,      // repeated fixed32, packed
  kDoubles = 7,      // repeated double
  kText2 = 8,        // optional string, proto2 (not checked)
  kText3 = 9,        // string, proto3 (UTF-8 checked, implicit presence)
  kChild = 10,       // optional message N
  kChildren = 11,    // repeated message N
  kUint32 = 12,      // repeated uint32
  kSint64 = 13,      // optional sint64
  kColor = 14,       // optional closed enum Color
  kShades = 15,      // repeated open enum Shade
  kBlobs = 16,       // repeated bytes
  kFloat = 17,       // float, implicit presence
  kSelf = 18,        // optional message M (recursion)
  kInt64 = 19,       // int64, implicit presence
  kFar = 1000,       // repeated fixed64 (sparse lookup)
};

// Message indices.
inline constexpr std::int32_t kRoot = 0;
inline constexpr std::int32_t kNested = 1;

// Color = {-1, 0, 1, 2, 1000000} (closed); Shade = {0, 1} (open).
// N: 1 optional int32 id, 2 repeated int64 values.
Schema MakeTestSchema();

// Bytes from a list of small integers.
inline std::vector<std::uint8_t> B(std::initializer_list<int> bytes) {
  std::vector<std::uint8_t> out;
  for (int b : bytes) out.push_back(static_cast<std::uint8_t>(b));
  return out;
}
inline std::vector<std::uint8_t> B(std::string_view s) {
  return std::vector<std::uint8_t>(s.begin(), s.end());
}

}  // namespace fairwire::wire::testing

#endif  // FAIRWIRE_CORE_SRC_WIRE_TEST_SCHEMA_H_
