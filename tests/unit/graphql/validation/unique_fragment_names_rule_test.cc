// core/graphql/validation/unique_fragment_names_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"UniqueFragmentNamesRejected",
       R"gql({ dog { ...F } }
fragment F on Dog { name }
fragment F on Dog { legs })gql",
       {{"There can be only one fragment named \"F\".", {{2, 10}, {3, 10}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueFragmentNamesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
