#include "core/graphql/utilities/suggestion_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace netgraph::graphql
