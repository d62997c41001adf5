// core/graphql/validation/unique_argument_names_rule.cc: documents and SDL with the errors
// graphql-js 16 reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"UniqueArgumentNamesRejected",
       R"gql({ count(min: 1, min: 2, max: 3, min: 4) dog { name @include(if: true, if:
  false) } })gql",
       {{"There can be only one argument named \"min\".", {{1, 9}, {1, 17}, {1, 33}}},
        {"There can be only one argument named \"if\".", {{1, 61}, {1, 71}}}}},
  };
}

std::vector<ValidationCase> SdlCases() {
  return {
      {"UniqueArgumentNames",
       "type Query { a: Int }\ntype T { a: Int @deprecated(reason: \"x\", reason: \"y\") }",
       {
           {"There can be only one argument named \"reason\".", {{2, 29}, {2, 42}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueArgumentNamesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

INSTANTIATE_TEST_SUITE_P(UniqueArgumentNamesRule, SdlValidationTest,
                         ::testing::ValuesIn(SdlCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
