// core/graphql/validation/unique_argument_definition_names_rule.cc: SDL with the errors graphql-js
// 16 reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> SdlCases() {
  return {
      {"UniqueArgumentDefinitionNames",
       "type Query { a: Int }\ntype T { a(x: Int, x: Int, x: String): Int }",
       {
           {"Argument \"T.a(x:)\" can only be defined once.", {{2, 12}, {2, 20}, {2, 28}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueArgumentDefinitionNamesRule, SdlValidationTest,
                         ::testing::ValuesIn(SdlCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
