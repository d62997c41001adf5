#include "core/crypto/base64.h"

#include <gtest/gtest.h>

#include <algorithm>
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

// The decoded text, or "<error>" when Base64UrlDecode refuses it.
std::string UrlDecoded(std::string_view text) {
  Result<std::string> decoded = Base64UrlDecode(text);
  return decoded.ok() ? *decoded : "<error>";
}

TEST(Base64UrlTest, DecodesEveryRemainderLength) {
  EXPECT_EQ(UrlDecoded(""), "");
  EXPECT_EQ(UrlDecoded("Zg"), "f");
  EXPECT_EQ(UrlDecoded("Zm8"), "fo");
  EXPECT_EQ(UrlDecoded("Zm9v"), "foo");
  EXPECT_EQ(UrlDecoded("Zm9vYg"), "foob");
}

TEST(Base64UrlTest, UsesTheUrlAlphabet) {
  EXPECT_EQ(UrlDecoded("-_8"), std::string("\xfb\xff", 2));
  EXPECT_EQ(UrlDecoded("+/8"), "<error>");
}

TEST(Base64UrlTest, RoundTripsAllByteValues) {
  std::vector<std::uint8_t> bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<std::uint8_t>(i));
  // The standard spelling, turned into base64url: the other two letters, no padding.
  std::string text = Base64Encode(bytes);
  std::replace(text.begin(), text.end(), '+', '-');
  std::replace(text.begin(), text.end(), '/', '_');
  text.erase(text.find('='));
  EXPECT_EQ(UrlDecoded(text), std::string(bytes.begin(), bytes.end()));
}

TEST(Base64UrlTest, RejectsNonCanonicalText) {
  EXPECT_EQ(UrlDecoded("Zg=="), "<error>");   // padding
  EXPECT_EQ(UrlDecoded("Zm9vY"), "<error>");  // a lone sextet is no byte
  EXPECT_EQ(UrlDecoded("Zh"), "<error>");     // unused bits set ("Zg" is canonical)
  EXPECT_EQ(UrlDecoded("Zm 9v"), "<error>");
  EXPECT_EQ(UrlDecoded("Zm9v\n"), "<error>");
}

}  // namespace
}  // namespace netgraph::crypto
