// Runs of unpacked records of one repeated fixed-width field (fixed32/64,
// sfixed32/64, float, double) with a one-byte tag: [tag][value][tag][value]...
// Every record is the same W + 1 bytes, so the run is found by looking at
// every (W + 1)th byte for the tag, and its values are then copied in one
// loop, where the record loop would read and dispatch each record.
#ifndef FAIRWIRE_WIRE_INTERNAL_FIXED_RUN_H_
#define FAIRWIRE_WIRE_INTERNAL_FIXED_RUN_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fairwire/wire/internal/kinds.h"
#include "fairwire/wire/internal/parse.h"
#include "fairwire/wire/status.h"

namespace fairwire::wire::internal {

// The run of records of fixed-width kind K from the value at p (its tag,
// the one byte tag_byte, read), appended to out. Stops where the record loop
// does (ParseScalarRecords): after the first value that is not followed by
// the tag with at least one byte after it; returns past that value. Errors:
// kTruncated at a value cut short by `end` (the values before it appended).
template <FieldKind K>
const std::uint8_t* ParseFixedRun(
    ParseContext& ctx, const std::uint8_t* p, const std::uint8_t* end,
    std::uint8_t tag_byte, std::vector<typename KindTraits<K>::Type>& out) {
  constexpr std::size_t kWidth = FixedWidth(K);
  static_assert(kWidth == 4 || kWidth == 8);
  constexpr std::size_t kRecord = kWidth + 1;
  // The values followed by the tag and another byte, then the last one.
  // Only `last` moves in the loop: the count is derived from it after (a
  // counter of its own would be one more value for a register or, inlined
  // into the record loop, a stack slot whose increment the loop waits on).
  const std::uint8_t* last = p;
  while (static_cast<std::size_t>(end - last) > kRecord &&
         last[kWidth] == tag_byte) {
    last += kRecord;
  }
  const auto followed = static_cast<std::size_t>(last - p) / kRecord;
  const auto value_at = [](const std::uint8_t* q) {
    return KindTraits<K>::Convert(kWidth == 4 ? LoadFixed32(q)
                                              : LoadFixed64(q));
  };
  const bool last_whole = static_cast<std::size_t>(end - last) >= kWidth;
  const std::size_t old_size = out.size();
  out.resize(old_size + followed + (last_whole ? 1 : 0));
  auto* const dst = out.data() + old_size;
  for (std::size_t i = 0; i < followed; ++i) dst[i] = value_at(p + i * kRecord);
  if (!last_whole) return ctx.Fail(DecodeError::kTruncated, last);
  dst[followed] = value_at(last);
  return last + kWidth;
}

}  // namespace fairwire::wire::internal

#endif  // FAIRWIRE_WIRE_INTERNAL_FIXED_RUN_H_
