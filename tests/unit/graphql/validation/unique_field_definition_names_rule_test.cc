// core/graphql/validation/unique_field_definition_names_rule.cc: SDL with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> SdlCases() {
  return {
      {"UniqueFieldDefinitionNames",
       "type Query { a: Int }\ntype T { a: Int a: String }",
       {
           {"Field \"T.a\" can only be defined once.", {{2, 10}, {2, 17}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueFieldDefinitionNamesRule, SdlValidationTest,
                         ::testing::ValuesIn(SdlCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
