// core/graphql/validation/fragments_on_composite_types_rule.cc: documents with the errors
// graphql-js 16 reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"FragmentsOnCompositeTypesAccepted",
       R"gql({ dog { ... on Animal { legs } ...F } }
fragment F on Thing { __typename })gql",
       {}},
      {"FragmentsOnCompositeTypesRejected",
       R"gql({ dog { ... on Boolean { x } ...F } }
fragment F on Filter { text })gql",
       {{"Fragment cannot condition on non composite type \"Boolean\".", {{1, 16}}},
        {"Fragment \"F\" cannot condition on non composite type \"Filter\".", {{2, 15}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(FragmentsOnCompositeTypesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
