// Executable definitions, operation names, the lone anonymous operation and single-field
// subscriptions (including the error graphql-js's validate() throws when a subscription's @skip or
// @include cannot be evaluated without variables).
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentsAndOperationsCases() {
  return {
      {"ExecutableDefinitionsAccepted",
       R"gql(query A { dog { name } }
fragment F on Dog { name })gql",
       {{"Fragment \"F\" is never used.", {{2, 1}}}}},
      {"ExecutableDefinitionsRejectsTypeSystem",
       R"gql({ dog { name } }
type Cat { name: String }
extend schema @onQuery
directive @d on FIELD)gql",
       {{"The \"Cat\" definition is not executable.", {{2, 1}}},
        {"The schema definition is not executable.", {{3, 1}}},
        {"The \"d\" definition is not executable.", {{4, 1}}},
        {"Directive \"@onQuery\" may not be used on SCHEMA.", {{3, 15}}}}},
      {"UniqueOperationNamesAccepted",
       R"gql(query A { dog { name } }
mutation B { rename(id: 1, name: "x") { name } })gql",
       {}},
      {"UniqueOperationNamesRejected",
       R"gql(query A { dog { name } }
subscription A { dogAdded { name } })gql",
       {{"There can be only one operation named \"A\".", {{1, 7}, {2, 14}}}}},
      {"LoneAnonymousOperationAccepted", R"gql({ dog { name } })gql", {}},
      {"LoneAnonymousOperationRejected",
       R"gql({ dog { name } }
query Named { animal { name } })gql",
       {{"This anonymous operation must be the only defined operation.", {{1, 1}}}}},
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

class DocumentsAndOperationsTest : public ::testing::TestWithParam<ValidationCase> {};

TEST_P(DocumentsAndOperationsTest, ReportsGraphqlJsErrors) { ExpectCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Rules, DocumentsAndOperationsTest,
                         ::testing::ValuesIn(DocumentsAndOperationsCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
