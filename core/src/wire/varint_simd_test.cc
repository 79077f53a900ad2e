// Differential properties of the packed-varint kernels: every kernel this CPU
// can run (AVX-512, BMI2, portable; each forced, so the scalar ones stay
// tested on AVX-512 machines) against a byte-at-a-time reference decoder, on
// random payloads: varints of every length 1..11 (11: too long), canonical
// or padded, at every alignment against the 64-byte blocks and the end of
// input, with truncated tails. Same values, same position, same error and
// offset.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fairwire/wire/internal/packed_fixed.h"
#include "fairwire/wire/internal/packed_varint.h"
#include "fairwire/wire/internal/parse.h"
#include "simd_test_gen.h"

#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
// The CPU description that the compiler runtime (libgcc, or compiler-rt)
// fills in at start-up and __builtin_cpu_supports reads: one bit per feature
// in features[0], which holds every feature the AVX-512 kernel asks for.
struct RuntimeCpuModel {
  unsigned int vendor;
  unsigned int type;
  unsigned int subtype;
  unsigned int features[1];
};
extern "C" RuntimeCpuModel __cpu_model;
#endif

namespace fairwire::wire::internal {
namespace {

using testgen::AppendVarint;

// What decoding a packed payload gave.
template <typename T>
struct Outcome {
  std::vector<T> values;
  std::ptrdiff_t consumed = -1;  // -1: failed
  DecodeStatus status;

  bool operator==(const Outcome&) const = default;
};

template <typename T>
std::string Describe(const Outcome<T>& o) {
  std::string s = "consumed " + std::to_string(o.consumed) + ", " +
                  ToString(o.status) + ", values:";
  for (const T& v : o.values) s += " " + std::to_string(v);
  return s;
}

// The reference: one byte at a time, as the format says (ten bytes at most,
// the tenth contributing its low bit; running past the record is an error).
template <FieldKind K>
Outcome<typename KindTraits<K>::Type> Reference(
    const std::uint8_t* base, const std::uint8_t* p, const std::uint8_t* end,
    std::vector<typename KindTraits<K>::Type> prefix) {
  Outcome<typename KindTraits<K>::Type> o;
  o.values = prefix;
  while (p < end) {
    std::uint64_t value = 0;
    int i = 0;
    for (; i < kMaxVarintBytes; ++i) {
      if (p + i == end) {
        o.values = prefix;
        o.status = {DecodeError::kPackedElementPastRecord,
                    static_cast<std::size_t>(p - base)};
        return o;
      }
      value |= std::uint64_t{p[i] & 0x7Fu} << (7 * i);
      if (p[i] < 0x80) break;
    }
    if (i == kMaxVarintBytes) {
      o.values = prefix;
      o.status = {DecodeError::kVarintTooLong,
                  static_cast<std::size_t>(p - base)};
      return o;
    }
    o.values.push_back(KindTraits<K>::Convert(value));
    p += i + 1;
  }
  o.consumed = p - base;
  return o;
}

// A generated input: the buffer, and the packed payload [begin, end) in it.
struct Input {
  std::vector<std::uint8_t> buffer;
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Mostly short elements (the common case), every length 1..11 sometimes,
// runs long enough to cross several 64-byte blocks, a random offset against
// the blocks, bytes after the payload (read by no kernel as values) or none
// (the payload ends the input), and sometimes a cut tail.
Input GenInput() {
  Input in;
  in.buffer.resize(*rc::gen::inRange<std::size_t>(0, 70));  // alignment
  in.begin = in.buffer.size();
  const bool allow_errors = *rc::gen::inRange(0, 4) == 0;
  const int max_length = allow_errors ? 11 : 10;
  const auto count = *rc::gen::inRange<int>(0, 120);
  const auto style = *rc::gen::inRange<int>(0, 5);
  for (int i = 0; i < count; ++i) {
    int length;
    if (style == 0) {
      length = *rc::gen::inRange(1, max_length + 1);
    } else if (style == 1) {
      length = *rc::gen::weightedElement<int>(
          {{8, 1}, {4, 2}, {3, 3}, {2, 10}, {1, 9}, {1, max_length}});
    } else if (style == 2) {
      length = *rc::gen::element(1, 10);
    } else if (style == 3) {
      length = *rc::gen::inRange(1, 4);
    } else {
      // Short elements (the portable level pairs their blocks) and now and
      // then a longer one, which unpairs its block, wherever it falls.
      length = *rc::gen::weightedElement<int>(
          {{20, 1}, {10, 2}, {5, 3}, {3, 4}, {1, 5}, {1, max_length}});
    }
    AppendVarint(in.buffer, length);
  }
  in.end = in.buffer.size();
  if (allow_errors && in.end > in.begin && *rc::gen::arbitrary<bool>()) {
    in.end -= *rc::gen::inRange<std::size_t>(1, in.end - in.begin + 1);
  }
  // After the payload: nothing, or other records' bytes.
  const auto after = *rc::gen::element<std::size_t>(0, 1, 9, 15, 16, 17, 80);
  in.buffer.resize(in.end);
  for (std::size_t i = 0; i < after; ++i) {
    in.buffer.push_back(static_cast<std::uint8_t>(*rc::gen::inRange(0, 256)));
  }
  return in;
}

// The kernels this CPU can run.
std::vector<KernelLevel> Kernels() {
  std::vector<KernelLevel> kernels;
  for (const KernelLevel level : kKernelLevels) {
    if (CpuSupports(level)) kernels.push_back(level);
  }
  return kernels;
}

// Decodes `in` as a packed record of kind K with every kernel (appending to
// a non-empty vector, which an error must leave as it was) and, on AVX-512
// CPUs, with the AVX-512 kernel alone; compares with the reference. Returns
// what differed, or "".
template <FieldKind K>
std::string CheckKind(const Input& in) {
  using T = typename KindTraits<K>::Type;
  const std::string kind(ToString(K));
  // The buffer is copied to an exact-size allocation: a read past the input
  // is an ASan failure.
  const std::vector<std::uint8_t> bytes = in.buffer;
  // (An empty input has no address to measure positions from.)
  if (bytes.empty()) return "";
  const std::uint8_t* base = bytes.data();
  const std::uint8_t* begin = base + in.begin;
  const std::uint8_t* end = base + in.end;
  const std::vector<T> prefix = {T(1), T(0)};
  const Outcome<T> expected = Reference<K>(base, begin, end, prefix);
  for (const KernelLevel kernel : Kernels()) {
    ParseContext ctx{base, base + bytes.size(), kMaxDepth, {}};
    Outcome<T> got;
    got.values = prefix;
    const std::uint8_t* q =
        ParsePackedVarint<K>(ctx, begin, end, got.values, kernel);
    got.consumed = q == nullptr ? -1 : q - base;
    got.status = ctx.status;
    if (!(got == expected) || (q == nullptr && got.status.ok())) {
      return "kind " + kind + ", kernel " +
             std::string(KernelLevelName(kernel)) + "\n  got      " +
             Describe(got) + "\n  expected " + Describe(expected);
    }
  }
#ifdef FAIRWIRE_WIRE_HAVE_AVX512_PATH
  // The AVX-512 kernel alone: a prefix of the elements, stopping only
  // before a bad one (which starts where it stopped).
  if (CpuHasAvx512Varint() && begin != end && end[-1] < 0x80) {
    std::vector<T> out(static_cast<std::size_t>(end - begin));
    const std::uint8_t* p = begin;
    T* dst = out.data();
    avx512::DecodeVarints<K>(&p, end, &dst);
    out.resize(static_cast<std::size_t>(dst - out.data()));
    const Outcome<T> head = Reference<K>(base, begin, p, {});
    const Outcome<T> rest = Reference<K>(base, p, end, {});
    const bool stopped_right =
        p >= begin && p <= end && head.status.ok() && out == head.values &&
        (expected.status.ok() ? p == end : rest.status == expected.status);
    if (!stopped_right) {
      return "kind " + kind + ", AVX-512 kernel alone stopped at offset " +
             std::to_string(p - base) + " with " + std::to_string(out.size()) +
             " values; expected " + Describe(expected);
    }
  }
#endif
  return "";
}

// Every varint kind on one input.
std::string CheckEveryKind(const Input& in) {
  for (const std::string& failure :
       {CheckKind<FieldKind::kInt64>(in), CheckKind<FieldKind::kUint64>(in),
        CheckKind<FieldKind::kSint64>(in), CheckKind<FieldKind::kInt32>(in),
        CheckKind<FieldKind::kUint32>(in), CheckKind<FieldKind::kSint32>(in),
        CheckKind<FieldKind::kEnum>(in), CheckKind<FieldKind::kBool>(in)}) {
    if (!failure.empty()) return failure;
  }
  return "";
}

RC_GTEST_PROP(VarintKernels, EveryKernelMatchesTheReference, ()) {
  const Input in = GenInput();
  RC_TAG(in.end - in.begin < 64 ? "under 64 bytes" : "64 bytes or more");
  const std::string failure = CheckEveryKind(in);
  if (!failure.empty()) RC_FAIL(failure);
}

// Every varint length at every offset against the 64-byte blocks: one
// element of that length at `offset` among one-byte ones, then the end of
// input at every distance after it (up to far enough that the blocks after
// the element, and the one it ends in when it crosses a block's end, are
// decoded as blocks too).
TEST(VarintKernels, EveryLengthAtEveryBlockOffsetMatchesTheReference) {
  for (int length = 1; length <= 11; ++length) {
    for (int offset = 0; offset < 140; ++offset) {
      for (int after : {0, 1, 5, 63, 64, 65, 70, 100, 150}) {
        Input in;
        for (int i = 0; i < offset; ++i) in.buffer.push_back(1);
        for (int i = 0; i < length; ++i) {
          const bool last = i == length - 1 && length <= kMaxVarintBytes;
          in.buffer.push_back(static_cast<std::uint8_t>(last ? 0x7F : 0xFF));
        }
        for (int i = 0; i < after; ++i) in.buffer.push_back(2);
        in.end = in.buffer.size();
        const std::string failure = CheckEveryKind(in);
        ASSERT_EQ(failure, "") << "length " << length << " offset " << offset
                               << " after " << after;
      }
    }
  }
}

// The portable level decodes a block two elements at a time exactly when
// every element ending in it has at most four bytes: the first one counted
// from its start in the block before, the others wherever they sit.
TEST(VarintKernels, BlocksArePairedExactlyWhenTheirElementsAreShort) {
  for (int length = 1; length <= 10; ++length) {
    for (int carried = 0; carried <= 6; ++carried) {
      for (int at = 0; at + length <= 64; ++at) {
        // One-byte elements, and one of `length` bytes at `at`; the block
        // starts `carried` bytes into a first element that ends at byte 0.
        std::vector<std::uint8_t> bytes(static_cast<std::size_t>(carried),
                                        0x80);
        const std::size_t block_at = bytes.size();
        bytes.resize(block_at + 64 + 16, 0x01);
        for (int i = 0; i + 1 < length; ++i) {
          bytes[block_at + static_cast<std::size_t>(at + i)] = 0x80;
        }
        const std::uint8_t* block = bytes.data() + block_at;
        const std::uint64_t mask = TerminatorMask64(block);
        // The first element: carried bytes and the block's bytes up to the
        // first terminator.
        const int first = carried + std::countr_zero(mask) + 1;
        const bool short_elements = length <= 4 && first <= 4;
        ASSERT_EQ(BlockHoldsPairedElements(mask, bytes.data(), block),
                  short_elements)
            << "length " << length << " at " << at << ", " << carried
            << " bytes carried";
      }
    }
  }
  // A block without a terminator holds no element end at all.
  const std::vector<std::uint8_t> open(64, 0x80);
  EXPECT_FALSE(BlockHoldsPairedElements(0, open.data(), open.data()));
}

// DecodePairedElements on a block BlockHoldsPairedElements accepts: it takes
// the block's terminators two by two, leaves the last one when their count
// is odd, stops right after the last element it took, and decodes those
// elements to what the reference does. (DecodeVarintBlocks' element loop
// would decode them alike: this checks the pairing itself, which the
// portable level relies on for its speed.)
template <FieldKind K>
void CheckPairedElements() {
  using T = typename KindTraits<K>::Type;
  // Elements of 1 to 4 bytes, the first one starting `carried` bytes before
  // the block, until 64 + 16 bytes past the block are there to read.
  const auto first_length = *rc::gen::inRange(1, 5);
  const auto carried =
      static_cast<std::size_t>(*rc::gen::inRange(0, first_length));
  std::vector<std::uint8_t> bytes;
  for (int length = first_length; bytes.size() < carried + 64 + 16;
       length = *rc::gen::inRange(1, 5)) {
    for (int i = 0; i < length; ++i) {
      const auto group = static_cast<std::uint8_t>(*rc::gen::inRange(0, 128));
      bytes.push_back(i + 1 < length ? static_cast<std::uint8_t>(0x80 | group)
                                     : group);
    }
  }
  const std::uint8_t* const block = bytes.data() + carried;
  const std::uint64_t terminators = TerminatorMask64(block);
  RC_ASSERT(BlockHoldsPairedElements(terminators, bytes.data(), block));

  std::uint64_t mask = terminators;
  const std::uint8_t* p = bytes.data();
  std::vector<T> out(64, T{});
  T* dst = out.data();
  DecodePairedElements<K>(block, &mask, &p, &dst);

  const int pairs = std::popcount(terminators) / 2;
  RC_ASSERT(dst - out.data() == 2 * pairs);
  // What is left: the block's last terminator when their count is odd.
  const std::uint64_t left = std::popcount(terminators) % 2 == 0
                                 ? 0
                                 : std::uint64_t{1}
                                       << (63 - std::countl_zero(terminators));
  RC_ASSERT(mask == left);
  // p is past the 2 * pairs-th element: one past its terminator.
  std::uint64_t taken = terminators;
  const std::uint8_t* expected_p = bytes.data();
  for (int i = 0; i < 2 * pairs; ++i) {
    expected_p = block + std::countr_zero(taken) + 1;
    taken &= taken - 1;
  }
  RC_ASSERT(p == expected_p);
  const Outcome<T> expected = Reference<K>(bytes.data(), bytes.data(), p, {});
  RC_ASSERT(expected.status.ok());
  out.resize(static_cast<std::size_t>(dst - out.data()));
  RC_ASSERT(out == expected.values);
}

RC_GTEST_PROP(VarintKernels, PairedBlocksDecodeTwoElementsATime, ()) {
  CheckPairedElements<FieldKind::kInt32>();  // both lanes by one store
  CheckPairedElements<FieldKind::kUint32>();
  CheckPairedElements<FieldKind::kEnum>();
  CheckPairedElements<FieldKind::kSint32>();  // each lane converted
  CheckPairedElements<FieldKind::kInt64>();
  CheckPairedElements<FieldKind::kSint64>();
  CheckPairedElements<FieldKind::kBool>();
}

// The packed fixed-width append by memmove (every level's, for payloads of
// kMemmoveAppendBytes and more): every count from 2 to 700, from an
// exact-size source at every misalignment (a read outside is an ASan
// failure, a read of a misaligned T a UBSan one), onto an output that
// already holds values; equal to appending one by one.
template <typename T>
void CheckMemmoveAppend() {
  const auto count = *rc::gen::inRange<std::size_t>(2, 700);
  const auto shift = *rc::gen::inRange<std::size_t>(0, 8);
  const auto src = *rc::gen::container<std::vector<std::uint8_t>>(
      shift + count * sizeof(T), rc::gen::arbitrary<std::uint8_t>());
  const auto prefix = *rc::gen::container<std::vector<T>>(
      *rc::gen::inRange<std::size_t>(0, 20), rc::gen::arbitrary<T>());
  const std::uint8_t* p = src.data() + shift;
  std::vector<T> got = prefix;
  std::vector<T> want = prefix;
  AppendByMemmove(got, p, p + count * sizeof(T));
  for (std::size_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, p + i * sizeof(T), sizeof(T));
    want.push_back(value);
  }
  // Compared as bytes: a double's NaN is not equal to itself.
  RC_ASSERT(got.size() == want.size());
  RC_ASSERT(std::memcmp(got.data(), want.data(), got.size() * sizeof(T)) == 0);
}

RC_GTEST_PROP(FixedAppend, MemmoveAppendEqualsAppendingOneByOne, ()) {
  CheckMemmoveAppend<std::uint64_t>();
  CheckMemmoveAppend<std::uint32_t>();
  CheckMemmoveAppend<double>();
}

// The element-by-element append (a big-endian host's path, never taken on
// a little-endian one by ParsePackedFixed): every fixed kind gives the
// values a little-endian copy of the bytes gives, in order, after what the
// output held.
template <FieldKind K, typename T>
void CheckElementAppend() {
  constexpr std::size_t kWidth = sizeof(T);
  const auto count = *rc::gen::inRange<std::size_t>(0, 70);
  const auto src = *rc::gen::container<std::vector<std::uint8_t>>(
      count * kWidth, rc::gen::arbitrary<std::uint8_t>());
  const auto prefix = *rc::gen::container<std::vector<T>>(
      *rc::gen::inRange<std::size_t>(0, 5), rc::gen::arbitrary<T>());
  std::vector<T> got = prefix;
  AppendFixedElements<K>(got, src.data(), src.data() + src.size());
  using Word = std::conditional_t<kWidth == 4, std::uint32_t, std::uint64_t>;
  std::vector<T> want = prefix;
  for (std::size_t i = 0; i < count; ++i) {
    Word word = 0;
    for (std::size_t b = 0; b < kWidth; ++b) {
      word |= static_cast<Word>(Word{src[i * kWidth + b]} << (8 * b));
    }
    want.push_back(std::bit_cast<T>(word));
  }
  RC_ASSERT(got.size() == want.size());
  // Compared as bytes (a NaN is not equal to itself); an empty vector's
  // data() may be null, which memcmp must not be given.
  if (!got.empty()) {
    RC_ASSERT(std::memcmp(got.data(), want.data(), got.size() * kWidth) == 0);
  }
}

RC_GTEST_PROP(FixedAppend, ElementAppendEqualsTheLittleEndianBytes, ()) {
  CheckElementAppend<FieldKind::kFixed32, std::uint32_t>();
  CheckElementAppend<FieldKind::kFixed64, std::uint64_t>();
  CheckElementAppend<FieldKind::kSfixed32, std::int32_t>();
  CheckElementAppend<FieldKind::kSfixed64, std::int64_t>();
  CheckElementAppend<FieldKind::kFloat, float>();
  CheckElementAppend<FieldKind::kDouble, double>();
}

// UnalignedIterator, which vector::insert takes as a random-access range,
// keeps the random-access iterator laws over the values of a byte buffer
// read at any alignment: every operator moves by whole values, both ways.
TEST(FixedAppend, UnalignedIteratorKeepsTheRandomAccessLaws) {
  std::uint8_t bytes[1 + 5 * 4];
  for (std::size_t i = 0; i < sizeof bytes; ++i) {
    bytes[i] = static_cast<std::uint8_t>(i);
  }
  using It = UnalignedIterator<std::uint32_t>;
  const It begin{bytes + 1};  // misaligned on purpose
  const It end{bytes + 1 + 5 * 4};
  const auto value = [&](std::size_t k) {
    std::uint32_t v;
    std::memcpy(&v, bytes + 1 + 4 * k, 4);
    return v;
  };
  EXPECT_EQ(end - begin, 5);
  EXPECT_EQ(begin - end, -5);
  It it = begin;
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(*it, value(k));
    EXPECT_EQ(begin[static_cast<std::ptrdiff_t>(k)], value(k));
    EXPECT_EQ(begin + static_cast<std::ptrdiff_t>(k), it);
    EXPECT_EQ(static_cast<std::ptrdiff_t>(k) + begin, it);
    EXPECT_EQ(it - begin, static_cast<std::ptrdiff_t>(k));
    EXPECT_LT(it, end);
    const It before = it++;
    EXPECT_EQ(before + 1, it);
    EXPECT_EQ(*before, value(k));
  }
  EXPECT_EQ(it, end);
  for (std::size_t k = 5; k-- > 0;) {
    const It after = it--;
    EXPECT_EQ(after - 1, it);
    EXPECT_EQ(*it, value(k));
  }
  EXPECT_EQ(it, begin);
  EXPECT_EQ(*++it, value(1));
  EXPECT_EQ(*--it, value(0));
  it += 4;
  EXPECT_EQ(*it, value(4));
  it -= 3;
  EXPECT_EQ(*it, value(1));
  EXPECT_EQ(end - 2, begin + 3);
  const std::vector<std::uint32_t> all(begin, end);
  ASSERT_EQ(all.size(), 5u);
  for (std::size_t k = 0; k < 5; ++k) EXPECT_EQ(all[k], value(k));
}

#if defined(FAIRWIRE_WIRE_HAVE_AVX512_PATH) && GTEST_HAS_DEATH_TEST
// In a fresh process (the check is made once): clears feature bit `bit` of
// the runtime's CPU description (none if negative), then exits 0 if
// CpuHasAvx512Varint() is true exactly when the CPU still reports every
// feature the kernel uses, 1 otherwise.
[[noreturn]] void ExitZeroIfAvx512CheckFollowsTheFeatures(int bit) {
  if (bit >= 0) __cpu_model.features[0] &= ~(1u << bit);
  const bool reported = __builtin_cpu_supports("avx512f") != 0 &&
                        __builtin_cpu_supports("avx512bw") != 0 &&
                        __builtin_cpu_supports("avx512vl") != 0 &&
                        __builtin_cpu_supports("avx512vbmi") != 0 &&
                        __builtin_cpu_supports("avx512vbmi2") != 0 &&
                        __builtin_cpu_supports("bmi2") != 0 &&
                        __builtin_cpu_supports("popcnt") != 0;
  const bool picked = CpuHasAvx512Varint();
  if (picked != reported) {
    std::fprintf(stderr, "CpuHasAvx512Varint() %d, features reported %d\n",
                 picked ? 1 : 0, reported ? 1 : 0);
    std::_Exit(1);
  }
  std::_Exit(0);
}

// The AVX-512 kernel is chosen only on a CPU that reports all seven features
// it uses (avx512f, avx512bw, avx512vl, avx512vbmi, avx512vbmi2, bmi2,
// popcnt), and needs no other: on this CPU as it is, and on this CPU with
// any one of its features taken away, CpuHasAvx512Varint() is true exactly
// when the seven are all still there. (On a CPU without AVX-512 it must be
// false every time.)
TEST(Avx512DispatchDeathTest,
     KernelIsChosenExactlyWhenEveryFeatureItUsesIsThere) {
  // A new process for each case: fork would inherit a check already made.
  const std::string style = GTEST_FLAG_GET(death_test_style);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const unsigned int features = __cpu_model.features[0];
  for (int bit = -1; bit < 32; ++bit) {
    if (bit >= 0 && ((features >> bit) & 1u) == 0) continue;
    EXPECT_EXIT(ExitZeroIfAvx512CheckFollowsTheFeatures(bit),
                testing::ExitedWithCode(0), "")
        << "feature bit " << bit << " cleared";
  }
  GTEST_FLAG_SET(death_test_style, style);
}
#endif

}  // namespace
}  // namespace fairwire::wire::internal
