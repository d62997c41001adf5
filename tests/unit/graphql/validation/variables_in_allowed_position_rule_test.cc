// core/graphql/validation/variables_in_allowed_position_rule.cc: documents with the errors
// graphql-js 16 reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"VariablesInAllowedPositionAccepted",
       R"gql(query ($id: ID!, $n: Int = 3, $f: Filter) { dog(id: $id) { friends(first:
  $n) { name
  } } search(filter: $f) { __typename } rename: person(name: "x") { age } })gql",
       {}},
      {"VariablesInAllowedPositionRejected",
       R"gql(query ($s: String, $colors: [Color], $opt: String) { count(min: $s)
  search(colors:
  $colors) { __typename } person(name: $opt) { age } })gql",
       {{"Variable \"$s\" of type \"String\" used in position expecting type \"Int\".",
         {{1, 8}, {1, 65}}},
        {"Variable \"$colors\" of type \"[Color]\" used in position expecting type \"[Color!]\".",
         {{1, 20}, {3, 3}}},
        {"Variable \"$opt\" of type \"String\" used in position expecting type \"String!\".",
         {{1, 38}, {3, 40}}}}},
      {"VariablesInAllowedPositionDefaults",
       R"gql(query ($name: String = "x", $null: String = null) { a: person(name: $name) {
  age }
  b: person(name: $null) { age } })gql",
       {{"Variable \"$null\" of type \"String\" used in position expecting type \"String!\".",
         {{1, 29}, {3, 19}}}}},
      {"VariablesInAllowedPositionOneOf",
       R"gql(query ($id: ID) { search(choice: { id: $id }) { __typename } })gql",
       {{"Variable \"id\" must be non-nullable to be used for OneOf Input Object \"Choice\".",
         {{1, 34}}},
        {"Variable \"$id\" is of type \"ID\" but must be non-nullable to be used for OneOf Input "
         "Object \"Choice\".",
         {{1, 8}, {1, 40}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(VariablesInAllowedPositionRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
