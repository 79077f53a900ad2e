// The proto3 string check accepts exactly well-formed UTF-8.
#include <gtest/gtest.h>

#include <string>

#include "fairwire/wire/internal/parse.h"

namespace fairwire::wire {
namespace {

bool Valid(const std::string& s) {
  return internal::IsValidUtf8(reinterpret_cast<const std::uint8_t*>(s.data()),
                               s.size());
}

TEST(Utf8Test, AcceptsWellFormedText) {
  EXPECT_TRUE(Valid(""));
  EXPECT_TRUE(Valid("plain ascii, longer than eight bytes"));
  EXPECT_TRUE(Valid("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"));  // é € 😀
  EXPECT_TRUE(Valid("\xF4\x8F\xBF\xBF"));                      // U+10FFFF
  EXPECT_TRUE(Valid(std::string("\0", 1)));
}

TEST(Utf8Test, RejectsOverlongsSurrogatesAndOutOfRange) {
  EXPECT_FALSE(Valid("\xC0\x80"));          // overlong NUL
  EXPECT_FALSE(Valid("\xE0\x80\xAF"));      // overlong '/'
  EXPECT_FALSE(Valid("\xED\xA0\x80"));      // surrogate U+D800
  EXPECT_FALSE(Valid("\xF4\x90\x80\x80"));  // U+110000
  EXPECT_FALSE(Valid("\xF8\x88\x80\x80\x80"));
  EXPECT_FALSE(Valid("\xFF"));
}

TEST(Utf8Test, RejectsTruncatedAndStrayContinuationBytes) {
  EXPECT_FALSE(Valid("\xE2\x82"));
  EXPECT_FALSE(Valid("abcdefgh\xC3"));
  EXPECT_FALSE(Valid("\x80"));
  EXPECT_FALSE(Valid("\xC3\x28"));
}

// Only 0xC2..0xF4 start a multi-byte sequence: a continuation byte, an
// overlong two-byte lead (0xC0, 0xC1) or a lead past U+10FFFF (0xF5..0xFF)
// is rejected even when followed by continuation bytes that would complete
// a four-byte sequence.
TEST(Utf8Test, RejectsEveryByteThatCannotLeadASequence) {
  for (int b = 0x80; b <= 0xFF; ++b) {
    if (b >= 0xC2 && b <= 0xF4) continue;
    std::string s = "\x80\x80\x80\x80";
    s[0] = static_cast<char>(b);
    EXPECT_FALSE(Valid(s)) << "lead byte " << b;
    EXPECT_FALSE(Valid("ab" + s + "cd")) << "lead byte " << b;
  }
}

// After 0xF0 the second byte must be at least 0x90: anything lower encodes a
// code point below U+10000 in four bytes (an overlong form).
TEST(Utf8Test, RejectsOverlongFourByteSequences) {
  EXPECT_FALSE(Valid("\xF0\x80\x80\x80"));  // overlong NUL
  EXPECT_FALSE(Valid("\xF0\x8F\xBF\xBF"));  // overlong U+FFFF
  EXPECT_TRUE(Valid("\xF0\x90\x80\x80"));   // U+10000, the first
}

}  // namespace
}  // namespace fairwire::wire
