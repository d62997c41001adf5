// core/graphql/validation/variables_are_input_types_rule.cc: documents with the errors graphql-js
// 16 reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"VariablesAreInputTypesRejected",
       R"gql(query ($a: Dog, $b: [Thing!], $c: Filter) { search(filter: $c) { __typename
  } })gql",
       {{"Variable \"$a\" cannot be non-input type \"Dog\".", {{1, 12}}},
        {"Variable \"$b\" cannot be non-input type \"[Thing!]\".", {{1, 21}}},
        {"Variable \"$a\" is never used.", {{1, 8}}},
        {"Variable \"$b\" is never used.", {{1, 17}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(VariablesAreInputTypesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
