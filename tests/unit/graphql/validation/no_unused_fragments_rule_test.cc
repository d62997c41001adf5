// core/graphql/validation/no_unused_fragments_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"NoUnusedFragmentsRejected",
       R"gql({ dog { ...Used } }
fragment Used on Dog { name }
fragment Unused on Dog { ...AlsoUnused }
fragment AlsoUnused on Dog { legs })gql",
       {{"Fragment \"Unused\" is never used.", {{3, 1}}},
        {"Fragment \"AlsoUnused\" is never used.", {{4, 1}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(NoUnusedFragmentsRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
