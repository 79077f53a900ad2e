// The fixed-width run (fixed_run.h) against the record loop it stands in for:
// runs of every fixed-width kind, of 0 to 40 records, ended every way a run
// ends (the input's end, a foreign tag, the tag as the last byte, a value
// cut at each of its bytes), with value bytes that equal the tag byte.
#include "fairwire/wire/internal/fixed_run.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace fairwire::wire::internal {
namespace {

constexpr std::uint8_t kTag = 0x0D;  // field 1, I32 (the byte is all it reads)

// What the record loop of ParseScalarRecords gives for the run at p: values
// one record at a time, while the tag and a byte after it follow.
template <FieldKind K>
struct RecordLoopRun {
  std::vector<typename KindTraits<K>::Type> values;
  std::ptrdiff_t stopped = 0;  // past the last value, or the error's offset
  bool truncated = false;
};
template <FieldKind K>
RecordLoopRun<K> RecordLoop(const std::vector<std::uint8_t>& input) {
  constexpr std::size_t kWidth = FixedWidth(K);
  RecordLoopRun<K> run;
  std::size_t at = 0;
  for (;;) {
    if (input.size() - at < kWidth) {
      run.truncated = true;
      run.stopped = static_cast<std::ptrdiff_t>(at);
      return run;
    }
    std::uint64_t raw = 0;
    for (std::size_t i = 0; i < kWidth; ++i) {
      raw |= std::uint64_t{input[at + i]} << (8 * i);
    }
    run.values.push_back(KindTraits<K>::Convert(raw));
    at += kWidth;
    if (input.size() - at <= 1 || input[at] != kTag) {
      run.stopped = static_cast<std::ptrdiff_t>(at);
      return run;
    }
    ++at;
  }
}

// How the generated run ends, after its whole records.
enum class Ending { kEnd, kForeignTag, kTagLast, kCutValue };

template <FieldKind K>
void CheckRunsOfKind() {
  using T = typename KindTraits<K>::Type;
  constexpr std::size_t kWidth = FixedWidth(K);
  for (std::size_t records = 1; records <= 40; ++records) {
    for (const Ending ending : {Ending::kEnd, Ending::kForeignTag,
                                Ending::kTagLast, Ending::kCutValue}) {
      for (std::size_t cut = 0;
           cut < (ending == Ending::kCutValue ? kWidth : 1); ++cut) {
        // Value bytes run through every byte value, the tag's among them.
        std::vector<std::uint8_t> input;
        for (std::size_t r = 0; r < records; ++r) {
          if (r != 0) input.push_back(kTag);
          for (std::size_t i = 0; i < kWidth; ++i) {
            input.push_back(static_cast<std::uint8_t>(r * 29 + i * 3 + 7));
          }
        }
        switch (ending) {
          case Ending::kEnd:
            break;
          case Ending::kForeignTag:
            input.push_back(kTag ^ 0x08);
            input.push_back(0x01);
            break;
          case Ending::kTagLast:
            input.push_back(kTag);
            break;
          case Ending::kCutValue:
            input.push_back(kTag);
            input.insert(input.end(), cut, kTag);
            break;
        }
        const RecordLoopRun<K> want = RecordLoop<K>(input);
        const std::string where =
            "kind " + std::to_string(static_cast<int>(K)) + ", " +
            std::to_string(records) + " records, ending " +
            std::to_string(static_cast<int>(ending)) + ", cut " +
            std::to_string(cut);

        // In a buffer of exactly its size: a read past it is an ASan
        // failure (a vector's spare capacity would hide it).
        const auto exact = std::make_unique<std::uint8_t[]>(input.size());
        std::memcpy(exact.get(), input.data(), input.size());
        const std::uint8_t* const begin = exact.get();
        const std::uint8_t* const end = begin + input.size();
        ParseContext ctx{begin, end, kMaxDepth, {}};
        std::vector<T> out = {T{}};  // appended to, after what was there
        const std::uint8_t* p = ParseFixedRun<K>(ctx, begin, end, kTag, out);
        if (want.truncated) {
          EXPECT_EQ(p, nullptr) << where;
          EXPECT_EQ(ctx.status.error, DecodeError::kTruncated) << where;
          EXPECT_EQ(static_cast<std::ptrdiff_t>(ctx.status.offset),
                    want.stopped)
              << where;
        } else {
          ASSERT_NE(p, nullptr) << where;
          EXPECT_EQ(p - begin, want.stopped) << where;
        }
        ASSERT_EQ(out.size(), want.values.size() + 1) << where;
        for (std::size_t i = 0; i < want.values.size(); ++i) {
          // Bit for bit (floats included: NaN payloads must survive).
          EXPECT_EQ(std::memcmp(&out[i + 1], &want.values[i], sizeof(T)), 0)
              << where << ", value " << i;
        }
      }
    }
  }
}

TEST(FixedRun, TakesWhatTheRecordLoopTakesForEveryFixedKind) {
  CheckRunsOfKind<FieldKind::kFixed32>();
  CheckRunsOfKind<FieldKind::kSfixed32>();
  CheckRunsOfKind<FieldKind::kFloat>();
  CheckRunsOfKind<FieldKind::kFixed64>();
  CheckRunsOfKind<FieldKind::kSfixed64>();
  CheckRunsOfKind<FieldKind::kDouble>();
}

}  // namespace
}  // namespace fairwire::wire::internal
