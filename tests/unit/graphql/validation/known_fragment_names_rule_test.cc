// core/graphql/validation/known_fragment_names_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"KnownFragmentNamesRejected",
       R"gql({ dog { ...Nope owner { ...AlsoNope } } })gql",
       {{"Unknown fragment \"Nope\".", {{1, 12}}}, {"Unknown fragment \"AlsoNope\".", {{1, 28}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(KnownFragmentNamesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
