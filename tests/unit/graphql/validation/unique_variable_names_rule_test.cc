// core/graphql/validation/unique_variable_names_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"UniqueVariableNamesRejected",
       R"gql(query ($a: Int, $b: Int, $a: Int, $a: String) { count(min: $a, max: $b) })gql",
       {{"There can be only one variable named \"$a\".", {{1, 9}, {1, 27}, {1, 36}}},
        {"Variable \"$a\" of type \"String\" used in position expecting type \"Int\".",
         {{1, 35}, {1, 60}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueVariableNamesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
