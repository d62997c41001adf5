// Directive existence, locations and uniqueness; variable uniqueness, types, definition,
// use and allowed positions.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DirectivesAndVariablesCases() {
  return {
      {"KnownDirectivesAccepted",
       R"gql(query @onQuery { dog @onField { name @tag(name: "a") @tag } })gql",
       {}},
      {"KnownDirectivesRejected",
       R"gql(query @onField { dog @unknown { name @onQuery ...F @onField } }
fragment F on Dog @tag { legs })gql",
       {{"Directive \"@onField\" may not be used on QUERY.", {{1, 7}}},
        {"Unknown directive \"@unknown\".", {{1, 22}}},
        {"Directive \"@onQuery\" may not be used on FIELD.", {{1, 38}}},
        {"Directive \"@onField\" may not be used on FRAGMENT_SPREAD.", {{1, 52}}},
        {"Directive \"@tag\" may not be used on FRAGMENT_DEFINITION.", {{2, 19}}}}},
      {"UniqueDirectivesPerLocationRejected",
       R"gql({ dog @onField @onField { name @skip(if: true) @tag @tag @skip(if: false) }
  })gql",
       {{"The directive \"@onField\" can only be used once at this location.", {{1, 7}, {1, 16}}},
        {"The directive \"@skip\" can only be used once at this location.", {{1, 32}, {1, 58}}}}},
      {"UniqueVariableNamesRejected",
       R"gql(query ($a: Int, $b: Int, $a: Int, $a: String) { count(min: $a, max: $b) })gql",
       {{"There can be only one variable named \"$a\".", {{1, 9}, {1, 27}, {1, 36}}},
        {"Variable \"$a\" of type \"String\" used in position expecting type \"Int\".",
         {{1, 35}, {1, 60}}}}},
      {"VariablesAreInputTypesRejected",
       R"gql(query ($a: Dog, $b: [Thing!], $c: Filter) { search(filter: $c) { __typename
  } })gql",
       {{"Variable \"$a\" cannot be non-input type \"Dog\".", {{1, 12}}},
        {"Variable \"$b\" cannot be non-input type \"[Thing!]\".", {{1, 21}}},
        {"Variable \"$a\" is never used.", {{1, 8}}},
        {"Variable \"$b\" is never used.", {{1, 17}}}}},
      {"NoUndefinedVariablesRejected",
       R"gql(query Q($a: Int) { count(min: $a, max: $b) dog { ...F } }
fragment F on Dog { friends(first: $c) { name } })gql",
       {{"Variable \"$b\" is not defined by operation \"Q\".", {{1, 40}, {1, 1}}},
        {"Variable \"$c\" is not defined by operation \"Q\".", {{2, 36}, {1, 1}}}}},
      {"NoUndefinedVariablesAnonymous",
       R"gql({ count(min: $x) })gql",
       {{"Variable \"$x\" is not defined.", {{1, 14}, {1, 1}}}}},
      {"NoUnusedVariablesRejected",
       R"gql(query Q($a: Int, $b: Int, $c: Int) { count(min: $b) })gql",
       {{"Variable \"$a\" is never used in operation \"Q\".", {{1, 9}}},
        {"Variable \"$c\" is never used in operation \"Q\".", {{1, 27}}}}},
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

class DirectivesAndVariablesTest : public ::testing::TestWithParam<ValidationCase> {};

TEST_P(DirectivesAndVariablesTest, ReportsGraphqlJsErrors) { ExpectCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Rules, DirectivesAndVariablesTest,
                         ::testing::ValuesIn(DirectivesAndVariablesCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
