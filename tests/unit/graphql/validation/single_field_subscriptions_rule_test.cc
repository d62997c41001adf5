// core/graphql/validation/single_field_subscriptions_rule.cc: documents with the errors graphql-js
// 16 reports for them. The last case is the error graphql-js's validate() throws when a
// subscription's @skip or @include cannot be evaluated without variables.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"SingleFieldSubscriptionsAccepted", R"gql(subscription { dogAdded { name } })gql", {}},
      {"SingleFieldSubscriptionsRejectsMoreFields",
       R"gql(subscription S { dogAdded { name } personAdded { name } ...More }
fragment More on Subscription { again: dogAdded { legs } })gql",
       {{"Subscription \"S\" must select only one top level field.", {{1, 36}, {2, 33}}}}},
      {"SingleFieldSubscriptionsRejectsIntrospection",
       R"gql(subscription { __typename })gql",
       {{"Anonymous Subscription must not select an introspection top level field.", {{1, 16}}}}},
      {"SingleFieldSubscriptionsSkipsExcludedFields",
       R"gql(subscription { dogAdded { name } personAdded @skip(if: true) { name } })gql",
       {}},
      {"SingleFieldSubscriptionsFailsOnVariableDirective",
       R"gql(query Earlier { nope }
subscription S($on: Boolean!) { dogAdded @include(if: $on) { name } })gql",
       {{"Argument \"if\" of required type \"Boolean!\" was provided the variable \"$on\" which "
         "was not provided a runtime value.",
         {{2, 55}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(SingleFieldSubscriptionsRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
