// core/graphql/validation/values_of_correct_type_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"ValuesOfCorrectTypeScalars",
       R"gql({ count(min: "1", max: 1.5) dog(id: 1.0) { friends(first: 2147483648) { name
  } }
  person(name: 7) { age } })gql",
       {{"Int cannot represent non-integer value: \"1\"", {{1, 14}}},
        {"Int cannot represent non-integer value: 1.5", {{1, 24}}},
        {"ID cannot represent a non-string and non-integer value: 1.0", {{1, 37}}},
        {"Int cannot represent non 32-bit signed integer value: 2147483648", {{1, 59}}},
        {"String cannot represent a non string value: 7", {{3, 16}}}}},
      {"ValuesOfCorrectTypeEnums",
       R"gql({ search(colors: [RED, "GREEN", Purple, 1]) { __typename } })gql",
       {{"Enum \"Color\" cannot represent non-enum value: \"GREEN\". Did you mean the enum value "
         "\"GREEN\"?",
         {{1, 24}}},
        {"Value \"Purple\" does not exist in \"Color\" enum.", {{1, 33}}},
        {"Enum \"Color\" cannot represent non-enum value: 1.", {{1, 41}}}}},
      {"ValuesOfCorrectTypeInputObjects",
       R"gql({ search(filter: { text: "x", colr: RED, limit: null, inner: { inner: {} }
  }) {
  __typename } })gql",
       {{"Field \"Filter.color\" of required type \"Color!\" was not provided.", {{1, 18}}},
        {"Field \"colr\" is not defined by type \"Filter\". Did you mean \"color\"?", {{1, 31}}},
        {"Field \"Filter.color\" of required type \"Color!\" was not provided.", {{1, 62}}},
        {"Field \"Filter.color\" of required type \"Color!\" was not provided.", {{1, 71}}}}},
      {"ValuesOfCorrectTypeNullForNonNull",
       R"gql({ person(name: null) { age } search(colors: [null], filter: { color: null })
  {
  __typename } })gql",
       {{"Expected value of type \"String!\", found null.", {{1, 16}}},
        {"Expected value of type \"Color!\", found null.", {{1, 46}}},
        {"Expected value of type \"Color!\", found null.", {{1, 70}}}}},
      {"ValuesOfCorrectTypeListsAndObjectsInWrongPlaces",
       R"gql({ count(min: [1]) search(filter: [{ color: RED }], colors: { a: 1 }) {
  __typename }
  })gql",
       {{"Int cannot represent non-integer value: [1]", {{1, 14}}},
        {"Expected value of type \"Filter\", found [{color: RED}].", {{1, 34}}},
        {"Enum \"Color\" cannot represent non-enum value: {a: 1}.", {{1, 60}}}}},
      {"ValuesOfCorrectTypeCustomScalar",
       R"gql({ json(value: { anything: [1, "two", THREE, null] }) })gql",
       {}},
      {"ValuesOfCorrectTypeOneOf",
       R"gql(query ($id: ID, $text: String!) {
  a: search(choice: { id: 1, text: "x" }) { __typename }
  b: search(choice: {}) { __typename }
  c: search(choice: { id: null }) { __typename }
  d: search(choice: { id: $id }) { __typename }
  e: search(choice: { text: $text }) { __typename }
})gql",
       {{"OneOf Input Object \"Choice\" must specify exactly one key.", {{2, 21}}},
        {"OneOf Input Object \"Choice\" must specify exactly one key.", {{3, 21}}},
        {"Field \"Choice.id\" must be non-null.", {{4, 21}}},
        {"Variable \"id\" must be non-nullable to be used for OneOf Input Object \"Choice\".",
         {{5, 21}}},
        {"Variable \"$id\" is of type \"ID\" but must be non-nullable to be used for OneOf Input "
         "Object \"Choice\".",
         {{1, 8}, {5, 27}}}}},
      {"ValuesOfCorrectTypeVariableDefaults",
       R"gql(query ($a: Int = "x", $b: Filter = { text: 1 }, $c: Color = RED) {
  count(min: $a)
  search(filter: $b) { __typename } })gql",
       {{"Int cannot represent non-integer value: \"x\"", {{1, 18}}},
        {"Field \"Filter.color\" of required type \"Color!\" was not provided.", {{1, 36}}},
        {"String cannot represent a non string value: 1", {{1, 44}}},
        {"Variable \"$c\" is never used.", {{1, 49}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(ValuesOfCorrectTypeRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
