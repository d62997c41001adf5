// core/graphql/validation/unique_input_field_names_rule.cc: documents and SDL with the errors
// graphql-js 16 reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"UniqueInputFieldNamesRejected",
       R"gql({ search(filter: { color: RED, color: BLUE, inner: { color: RED, text: "a",
  text:
  "b" } }) { __typename } })gql",
       {{"There can be only one input field named \"color\".", {{1, 20}, {1, 32}}},
        {"There can be only one input field named \"text\".", {{1, 66}, {2, 3}}}}},
  };
}

std::vector<ValidationCase> SdlCases() {
  return {
      {"UniqueInputFieldNames",
       "type Query { a: Int }\ntype T { a(x: I = {a: 1, a: 2}): Int } input I { a: Int }",
       {
           {"There can be only one input field named \"a\".", {{2, 20}, {2, 26}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueInputFieldNamesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

INSTANTIATE_TEST_SUITE_P(UniqueInputFieldNamesRule, SdlValidationTest,
                         ::testing::ValuesIn(SdlCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
