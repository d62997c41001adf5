// core/graphql/validation/unique_directive_names_rule.cc: SDL with the errors graphql-js 16 reports
// for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> SdlCases() {
  return {
      {"UniqueDirectiveNames",
       "type Query { a: Int }\ndirective @d on FIELD\ndirective @d on QUERY",
       {
           {"There can be only one directive named \"@d\".", {{2, 12}, {3, 12}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueDirectiveNamesRule, SdlValidationTest,
                         ::testing::ValuesIn(SdlCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
