// core/graphql/validation/lone_schema_definition_rule.cc: SDL with the errors graphql-js 16 reports
// for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> SdlCases() {
  return {
      {"LoneSchemaDefinition",
       "type Query { a: Int }\nschema { query: Query }\nschema { query: Query }",
       {
           {"Must provide only one schema definition.", {{3, 1}}},
           {"There can be only one query type in schema.", {{2, 10}, {3, 10}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(LoneSchemaDefinitionRule, SdlValidationTest,
                         ::testing::ValuesIn(SdlCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
