// core/graphql/validation/no_unused_variables_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"NoUnusedVariablesRejected",
       R"gql(query Q($a: Int, $b: Int, $c: Int) { count(min: $b) })gql",
       {{"Variable \"$a\" is never used in operation \"Q\".", {{1, 9}}},
        {"Variable \"$c\" is never used in operation \"Q\".", {{1, 27}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(NoUnusedVariablesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
