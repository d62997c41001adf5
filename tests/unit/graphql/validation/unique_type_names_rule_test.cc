// core/graphql/validation/unique_type_names_rule.cc: SDL with the errors graphql-js 16 reports for
// them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> SdlCases() {
  return {
      {"UniqueTypeNames",
       "type Query { a: Int }\ntype Query { b: Int }",
       {
           {"There can be only one type named \"Query\".", {{1, 6}, {2, 6}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueTypeNamesRule, SdlValidationTest, ::testing::ValuesIn(SdlCases()),
                         CaseName);

}  // namespace
}  // namespace netgraph::graphql
