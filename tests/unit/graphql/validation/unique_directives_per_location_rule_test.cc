// core/graphql/validation/unique_directives_per_location_rule.cc: documents and SDL with the errors
// graphql-js 16 reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"UniqueDirectivesPerLocationRejected",
       R"gql({ dog @onField @onField { name @skip(if: true) @tag @tag @skip(if: false) }
  })gql",
       {{"The directive \"@onField\" can only be used once at this location.", {{1, 7}, {1, 16}}},
        {"The directive \"@skip\" can only be used once at this location.", {{1, 32}, {1, 58}}}}},
  };
}

std::vector<ValidationCase> SdlCases() {
  return {
      {"UniqueDirectivesPerLocation",
       "type Query { a: Int }\ntype T { a: Int @deprecated @deprecated }",
       {
           {"The directive \"@deprecated\" can only be used once at this location.",
            {{2, 17}, {2, 29}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(UniqueDirectivesPerLocationRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

INSTANTIATE_TEST_SUITE_P(UniqueDirectivesPerLocationRule, SdlValidationTest,
                         ::testing::ValuesIn(SdlCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
