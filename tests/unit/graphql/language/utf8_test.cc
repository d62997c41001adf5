#include "core/graphql/language/utf8.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace netgraph::graphql {
namespace {

TEST(Utf8Test, DecodesAndMeasures) {
  const char* text = "a\xC3\xA9\xF0\x9F\x98\x80\xFF";
  const char* end = text + 8;
  EXPECT_EQ(utf8::Decode(text + 1, end).code_point, 0xE9u);
  EXPECT_EQ(utf8::Decode(text + 3, end).code_point, 0x1F600u);
  utf8::Decoded bad = utf8::Decode(text + 7, end);
  EXPECT_FALSE(bad.well_formed);
  EXPECT_EQ(bad.code_point, utf8::kReplacementCharacter);
  EXPECT_EQ(bad.length, 1);
  // A truncated sequence is one replacement character for its maximal subpart.
  EXPECT_EQ(utf8::Decode("\xF0\x9F\x98", "\xF0\x9F\x98" + 3).length, 3);
  EXPECT_EQ(utf8::Utf16Length(std::string_view(text, 8)), 5u);
  EXPECT_EQ(utf8::Utf16Prefix("a\xF0\x9F\x98\x80"
                              "b",
                              2),
            "a\xF0\x9F\x98\x80");
  std::string encoded;
  utf8::Append(0x1F600, &encoded);
  EXPECT_EQ(encoded, "\xF0\x9F\x98\x80");
}

}  // namespace
}  // namespace netgraph::graphql
