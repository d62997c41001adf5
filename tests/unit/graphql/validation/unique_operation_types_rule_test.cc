// core/graphql/validation/unique_operation_types_rule.cc: SDL with the errors graphql-js 16 reports
// for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> SdlCases() {
  return {
      {"UniqueOperationTypes",
       "type Query { a: Int }\nschema { query: Query query: Query }",
       {
           {"There can be only one query type in schema.", {{2, 10}, {2, 23}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueOperationTypesRule, SdlValidationTest,
                         ::testing::ValuesIn(SdlCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
