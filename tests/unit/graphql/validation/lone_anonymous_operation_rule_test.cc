// core/graphql/validation/lone_anonymous_operation_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"LoneAnonymousOperationAccepted", R"gql({ dog { name } })gql", {}},
      {"LoneAnonymousOperationRejected",
       R"gql({ dog { name } }
query Named { animal { name } })gql",
       {{"This anonymous operation must be the only defined operation.", {{1, 1}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(LoneAnonymousOperationRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
