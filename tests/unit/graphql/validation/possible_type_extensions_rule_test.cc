// core/graphql/validation/possible_type_extensions_rule.cc: SDL with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> SdlCases() {
  return {
      {"PossibleTypeExtensions",
       "type Query { a: Int }\nextend type Nope { a: Int }\nscalar S\nextend type S @deprecated",
       {
           {"Cannot extend type \"Nope\" because it is not defined.", {{2, 13}}},
           {"Cannot extend non-object type \"S\".", {{3, 1}, {4, 1}}},
           {"Directive \"@deprecated\" may not be used on OBJECT.", {{4, 15}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(PossibleTypeExtensionsRule, SdlValidationTest,
                         ::testing::ValuesIn(SdlCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
