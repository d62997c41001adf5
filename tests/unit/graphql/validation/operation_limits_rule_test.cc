// core/graphql/validation/operation_limits_rule.cc: netgraph's depth and alias limits.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

TEST(MaxDepthTest, ReportsOperationsNestedTooDeep) {
  ValidationOptions options;
  options.max_depth = 3;
  EXPECT_TRUE(ErrorsOf("{ dog { owner { name } } }", options).empty());
  std::vector<Error> errors =
      ErrorsOf("query Deep { dog { friends { owner { name } } } }", options);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "Query depth 4 exceeds the maximum of 3.");
  EXPECT_EQ(errors[0].locations[0].line, 1);
  EXPECT_EQ(errors[0].locations[0].column, 1);
}

TEST(MaxDepthTest, FollowsFragmentsAndIgnoresIntrospection) {
  ValidationOptions options;
  options.max_depth = 2;
  EXPECT_EQ(Messages(ErrorsOf("{ dog { ...F } }\nfragment F on Dog { owner { name } }", options)),
            std::vector<std::string>{"Query depth 3 exceeds the maximum of 2."});
  EXPECT_TRUE(ErrorsOf("{ __schema { types { fields { type { name } } } } dog { name } }", options)
                  .empty());
  EXPECT_TRUE(ErrorsOf("{ dog { __typename owner { __typename } } }", options).empty());
}

TEST(MaxDepthTest, FragmentCyclesEndAndAreReportedOnce) {
  ValidationOptions options;
  options.max_depth = 5;
  std::vector<Error> errors =
      ErrorsOf("{ dog { ...A } }\nfragment A on Dog { friends { ...A } }", options);
  EXPECT_EQ(Messages(errors),
            std::vector<std::string>{"Cannot spread fragment \"A\" within itself."});
}

TEST(MaxDepthTest, OffByDefault) {
  EXPECT_TRUE(ErrorsOf("{ dog { friends { friends { friends { friends { name } } } } } }").empty());
}

TEST(MaxAliasesTest, CountsAliasesWhereFragmentsAreSpread) {
  ValidationOptions options;
  options.max_aliases = 3;
  EXPECT_EQ(ErrorsOf("{ a: dog { n: name } b: dog { n: name } }", options).size(), 1u);
  EXPECT_TRUE(ErrorsOf("{ a: dog { n: name } b: dog { name } }", options).empty());
  std::vector<Error> errors =
      ErrorsOf("query Q { dog { ...F ...F } }\nfragment F on Dog { x: name y: legs }", options);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "Query has 4 aliases, which exceeds the maximum of 3.");
  EXPECT_TRUE(
      ErrorsOf("query Q { dog { ...F ...F } }\nfragment F on Dog { x: name y: legs }").empty());
}

}  // namespace
}  // namespace netgraph::graphql
