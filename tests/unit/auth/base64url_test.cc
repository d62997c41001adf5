#include "core/auth/base64url.h"

#include <gtest/gtest.h>

#include "tests/unit/auth/test_crypto.h"

namespace netgraph::auth {
namespace {

TEST(Base64UrlTest, DecodesEveryRemainderLength) {
  EXPECT_EQ(DecodeBase64Url(""), "");
  EXPECT_EQ(DecodeBase64Url("Zg"), "f");
  EXPECT_EQ(DecodeBase64Url("Zm8"), "fo");
  EXPECT_EQ(DecodeBase64Url("Zm9v"), "foo");
  EXPECT_EQ(DecodeBase64Url("Zm9vYg"), "foob");
}

TEST(Base64UrlTest, UsesTheUrlAlphabet) {
  EXPECT_EQ(DecodeBase64Url("-_8"), std::string("\xfb\xff", 2));
  EXPECT_EQ(DecodeBase64Url("+/8"), std::nullopt);
}

TEST(Base64UrlTest, RoundTripsAllByteValues) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  EXPECT_EQ(DecodeBase64Url(testing::Base64UrlEncode(bytes)), bytes);
}

TEST(Base64UrlTest, RejectsNonCanonicalText) {
  EXPECT_EQ(DecodeBase64Url("Zg=="), std::nullopt);   // padding
  EXPECT_EQ(DecodeBase64Url("Zm9vY"), std::nullopt);  // a lone sextet is no byte
  EXPECT_EQ(DecodeBase64Url("Zh"), std::nullopt);     // unused bits set ("Zg" is canonical)
  EXPECT_EQ(DecodeBase64Url("Zm 9v"), std::nullopt);
  EXPECT_EQ(DecodeBase64Url("Zm9v\n"), std::nullopt);
}

}  // namespace
}  // namespace netgraph::auth
