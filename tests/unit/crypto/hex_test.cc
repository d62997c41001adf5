#include "core/crypto/hex.h"

#include <gtest/gtest.h>

#include <array>

namespace netgraph::crypto {
namespace {

TEST(HexTest, EncodesLowercaseTwoDigitsPerByte) {
  const std::array<std::uint8_t, 4> bytes = {0x00, 0x0f, 0xa0, 0xff};
  EXPECT_EQ(HexEncode(bytes), "000fa0ff");
  EXPECT_EQ(HexEncode({}), "");
}

TEST(HexTest, DecodesExactLength) {
  std::array<std::uint8_t, 3> out{};
  ASSERT_TRUE(HexDecodeExact("01ab7f", out).ok());
  EXPECT_EQ(out, (std::array<std::uint8_t, 3>{0x01, 0xab, 0x7f}));
}

TEST(HexTest, RejectsWrongLengthUppercaseAndOtherCharacters) {
  std::array<std::uint8_t, 2> out{};
  EXPECT_FALSE(HexDecodeExact("abc", out).ok());
  EXPECT_FALSE(HexDecodeExact("abcdef", out).ok());
  EXPECT_FALSE(HexDecodeExact("ABCD", out).ok());
  EXPECT_FALSE(HexDecodeExact("abcg", out).ok());
  EXPECT_FALSE(HexDecodeExact(" abc", out).ok());
}

}  // namespace
}  // namespace netgraph::crypto
