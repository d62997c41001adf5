#include "core/crypto/base64.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "core/crypto/bytes.h"

namespace netgraph::crypto {
namespace {

std::vector<std::uint8_t> Bytes(std::string_view text) { return {text.begin(), text.end()}; }

TEST(Base64Test, EncodesWithPadding) {
  // RFC 4648 section 10.
  EXPECT_EQ(Base64Encode(AsBytes("")), "");
  EXPECT_EQ(Base64Encode(AsBytes("f")), "Zg==");
  EXPECT_EQ(Base64Encode(AsBytes("fo")), "Zm8=");
  EXPECT_EQ(Base64Encode(AsBytes("foo")), "Zm9v");
  EXPECT_EQ(Base64Encode(AsBytes("foobar")), "Zm9vYmFy");
  const std::array<std::uint8_t, 3> high = {0xfb, 0xff, 0xfe};
  EXPECT_EQ(Base64Encode(high), "+//+");
}

TEST(Base64Test, DecodesStandardPaddedText) {
  for (std::string text : {"", "f", "fo", "foo", "foob", "fooba", "foobar"}) {
    Result<std::vector<std::uint8_t>> decoded = Base64Decode(Base64Encode(AsBytes(text)));
    ASSERT_TRUE(decoded.ok()) << text;
    EXPECT_EQ(*decoded, Bytes(text));
  }
}

TEST(Base64Test, RejectsMissingOrExtraPadding) {
  EXPECT_FALSE(Base64Decode("Zg").ok());
  EXPECT_FALSE(Base64Decode("Zg=").ok());
  EXPECT_FALSE(Base64Decode("Zm8").ok());
  EXPECT_FALSE(Base64Decode("Zm9v=").ok());
  EXPECT_FALSE(Base64Decode("Zg===").ok());
}

TEST(Base64Test, RejectsNonZeroTrailingBits) {
  // "Zg==" is 'f'; "Zh==" sets a bit that the single byte has no room for.
  EXPECT_TRUE(Base64Decode("Zg==").ok());
  EXPECT_FALSE(Base64Decode("Zh==").ok());
  EXPECT_FALSE(Base64Decode("Zm9=").ok());
}

TEST(Base64Test, RejectsOtherAlphabetsAndStrayCharacters) {
  EXPECT_FALSE(Base64Decode("-__-").ok());  // URL-safe alphabet
  EXPECT_FALSE(Base64Decode("Zm9v\n").ok());
  EXPECT_FALSE(Base64Decode(" Zm9v").ok());
  EXPECT_FALSE(Base64Decode("Zm9v YmFy").ok());
  EXPECT_FALSE(Base64Decode("Zm9v*mFy").ok());
}

}  // namespace
}  // namespace netgraph::crypto
