// core/graphql/validation/unique_operation_names_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"UniqueOperationNamesAccepted",
       R"gql(query A { dog { name } }
mutation B { rename(id: 1, name: "x") { name } })gql",
       {}},
      {"UniqueOperationNamesRejected",
       R"gql(query A { dog { name } }
subscription A { dogAdded { name } })gql",
       {{"There can be only one operation named \"A\".", {{1, 7}, {2, 14}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueOperationNamesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
