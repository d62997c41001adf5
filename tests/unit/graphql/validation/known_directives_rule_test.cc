// core/graphql/validation/known_directives_rule.cc: documents and SDL with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"KnownDirectivesAccepted",
       R"gql(query @onQuery { dog @onField { name @tag(name: "a") @tag } })gql",
       {}},
      {"KnownDirectivesRejected",
       R"gql(query @onField { dog @unknown { name @onQuery ...F @onField } }
fragment F on Dog @tag { legs })gql",
       {{"Directive \"@onField\" may not be used on QUERY.", {{1, 7}}},
        {"Unknown directive \"@unknown\".", {{1, 22}}},
        {"Directive \"@onQuery\" may not be used on FIELD.", {{1, 38}}},
        {"Directive \"@onField\" may not be used on FRAGMENT_SPREAD.", {{1, 52}}},
        {"Directive \"@tag\" may not be used on FRAGMENT_DEFINITION.", {{2, 19}}}}},
  };
}

std::vector<ValidationCase> SdlCases() {
  return {
      {"KnownDirectives",
       "type Query { a: Int }\ntype T @unknown { a: Int }\nscalar S @deprecated",
       {
           {"Unknown directive \"@unknown\".", {{2, 8}}},
           {"Directive \"@deprecated\" may not be used on SCALAR.", {{3, 10}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(KnownDirectivesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

INSTANTIATE_TEST_SUITE_P(KnownDirectivesRule, SdlValidationTest, ::testing::ValuesIn(SdlCases()),
                         CaseName);

}  // namespace
}  // namespace netgraph::graphql
