// core/graphql/validation/no_undefined_variables_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"NoUndefinedVariablesRejected",
       R"gql(query Q($a: Int) { count(min: $a, max: $b) dog { ...F } }
fragment F on Dog { friends(first: $c) { name } })gql",
       {{"Variable \"$b\" is not defined by operation \"Q\".", {{1, 40}, {1, 1}}},
        {"Variable \"$c\" is not defined by operation \"Q\".", {{2, 36}, {1, 1}}}}},
      {"NoUndefinedVariablesAnonymous",
       R"gql({ count(min: $x) })gql",
       {{"Variable \"$x\" is not defined.", {{1, 14}, {1, 1}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(NoUndefinedVariablesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
