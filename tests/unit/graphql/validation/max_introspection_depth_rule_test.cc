// core/graphql/validation/max_introspection_depth_rule.cc: graphql-js's MaxIntrospectionDepthRule.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

TEST(MaxIntrospectionDepthTest, ReportsListsNestedThreeDeep) {
  const std::string deep =
      "{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }";
  std::vector<Error> errors = ErrorsOf(deep);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "Maximum introspection depth exceeded");
  EXPECT_EQ(errors[0].locations[0].column, 3);

  EXPECT_TRUE(ErrorsOf("{ __schema { types { fields { type { fields { name } } } } } }").empty());
  ValidationOptions stricter;
  stricter.max_introspection_depth = 2;
  EXPECT_EQ(
      ErrorsOf("{ __schema { types { fields { type { fields { name } } } } } }", stricter).size(),
      1u);
}

TEST(MaxIntrospectionDepthTest, FollowsFragmentsOnceEach) {
  // Each fragment spreads the next twice: 2^40 paths, one answer per fragment and depth.
  std::string document = "{ __type(name: \"Dog\") { ...F0 } }\n";
  for (int i = 0; i < 40; ++i) {
    document += "fragment F" + std::to_string(i) + " on __Type { ofType { ...F" +
                std::to_string(i + 1) + " } name ...F" + std::to_string(i + 1) + " }\n";
  }
  document +=
      "fragment F40 on __Type { fields { type { interfaces { possibleTypes { name } } } } }\n";
  std::vector<Error> errors = ErrorsOf(document);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "Maximum introspection depth exceeded");
}

}  // namespace
}  // namespace netgraph::graphql
