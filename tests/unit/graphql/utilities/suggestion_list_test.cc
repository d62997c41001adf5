// The small helpers of the GraphQL layer: suggestions, number formatting, source locations,
// UTF-8.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/graphql/language/source_location.h"
#include "core/graphql/language/utf8.h"
#include "core/graphql/utilities/number_format.h"
#include "core/graphql/utilities/suggestion_list.h"

namespace netgraph::graphql {
namespace {

using ::testing::ElementsAre;

TEST(SuggestionListTest, RanksCloseOptionsFirst) {
  EXPECT_THAT(SuggestionList("GREN", {"RED", "GREEN", "BLUE", "green"}),
              ElementsAre("GREEN", "green", "RED"));
  EXPECT_THAT(SuggestionList("abc", {"a", "ab", "abc"}), ElementsAre("abc", "ab", "a"));
  EXPECT_THAT(SuggestionList("a", {"b", "c"}), ElementsAre("b", "c"));
  EXPECT_THAT(SuggestionList("long", {"short"}), ElementsAre());
  EXPECT_THAT(SuggestionList("ab", {"ba"}), ElementsAre("ba"));  // a swap is one edit
  EXPECT_THAT(SuggestionList("t", {"t10", "t2", "t1"}), ElementsAre("t1", "t2"));
  EXPECT_THAT(SuggestionList("t", {"t10", "t2", "t1", "t11"}), ElementsAre("t1", "t2"));
  EXPECT_THAT(SuggestionList("item", {"item10", "item2"}), ElementsAre("item2", "item10"));
}

TEST(SuggestionListTest, WordsDidYouMeanAsGraphqlJs) {
  EXPECT_EQ(DidYouMean({}), "");
  EXPECT_EQ(DidYouMean({"A"}), " Did you mean \"A\"?");
  EXPECT_EQ(DidYouMean({"A", "B"}), " Did you mean \"A\" or \"B\"?");
  EXPECT_EQ(DidYouMean({"A", "B", "C"}), " Did you mean \"A\", \"B\", or \"C\"?");
  EXPECT_EQ(DidYouMean({"A", "B", "C", "D", "E", "F"}),
            " Did you mean \"A\", \"B\", \"C\", \"D\", or \"E\"?");
  EXPECT_EQ(DidYouMean({"RED"}, "the enum value"), " Did you mean the enum value \"RED\"?");
  EXPECT_LT(NaturalCompare("a2", "a10"), 0);
  EXPECT_GT(NaturalCompare("b", "a"), 0);
  EXPECT_EQ(NaturalCompare("x", "x"), 0);
}

TEST(NumberFormatTest, WritesNumbersAsJavaScript) {
  EXPECT_EQ(FormatJsNumber(0), "0");
  EXPECT_EQ(FormatJsNumber(-0.0), "0");
  EXPECT_EQ(FormatJsNumber(1), "1");
  EXPECT_EQ(FormatJsNumber(-1.5), "-1.5");
  EXPECT_EQ(FormatJsNumber(0.1), "0.1");
  EXPECT_EQ(FormatJsNumber(100), "100");
  EXPECT_EQ(FormatJsNumber(123456789012345680000.0), "123456789012345680000");
  EXPECT_EQ(FormatJsNumber(1e21), "1e+21");
  EXPECT_EQ(FormatJsNumber(1.5e300), "1.5e+300");
  EXPECT_EQ(FormatJsNumber(0.000001), "0.000001");
  EXPECT_EQ(FormatJsNumber(1e-7), "1e-7");
  EXPECT_EQ(FormatJsNumber(-2.5e-8), "-2.5e-8");
  EXPECT_EQ(FormatJsNumber(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(FormatJsNumber(-std::numeric_limits<double>::infinity()), "-Infinity");
}

TEST(SourceLocationTest, LocatesAsGraphqlJs) {
  const std::string source = "ab\r\ncd\re\n\xF0\x9F\x98\x80x\n";
  LineIndex index(source);
  for (std::uint32_t offset = 0; offset <= source.size(); ++offset) {
    SourceLocation expected = LocateOffset(source, offset);
    SourceLocation actual = index.Locate(offset);
    EXPECT_EQ(actual.line, expected.line) << offset;
    EXPECT_EQ(actual.column, expected.column) << offset;
  }
  EXPECT_EQ(LocateOffset(source, 0).line, 1);
  EXPECT_EQ(LocateOffset(source, 4).line, 2);     // after "\r\n"
  EXPECT_EQ(LocateOffset(source, 7).line, 3);     // after "\r"
  EXPECT_EQ(LocateOffset(source, 13).column, 3);  // after the emoji: two UTF-16 units
}

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
