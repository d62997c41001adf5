// core/graphql/validation/unique_enum_value_names_rule.cc: SDL with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> SdlCases() {
  return {
      {"UniqueEnumValueNames",
       "type Query { a: Int }\nenum E { A A }",
       {
           {"Enum value \"E.A\" can only be defined once.", {{2, 10}, {2, 12}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueEnumValueNamesRule, SdlValidationTest,
                         ::testing::ValuesIn(SdlCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
