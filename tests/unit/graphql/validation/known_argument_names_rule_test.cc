// core/graphql/validation/known_argument_names_rule.cc: documents and SDL with the errors
// graphql-js 16 reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"KnownArgumentNamesAccepted",
       R"gql({ dog(id: 1) { friends(first: 2) { name @include(if: true) } } })gql",
       {}},
      {"KnownArgumentNamesRejected",
       R"gql({ dog(ident: 1) { friends(frist: 2) { name @include(fi: true) } } })gql",
       {{"Unknown argument \"ident\" on field \"Query.dog\". Did you mean \"id\"?", {{1, 7}}},
        {"Unknown argument \"frist\" on field \"Dog.friends\". Did you mean \"first\"?", {{1, 27}}},
        {"Unknown argument \"fi\" on directive \"@include\". Did you mean \"if\"?", {{1, 53}}},
        {"Directive \"@include\" argument \"if\" of type \"Boolean!\" is required, but it was not "
         "provided.",
         {{1, 44}}}}},
  };
}

std::vector<ValidationCase> SdlCases() {
  return {
      {"KnownArgumentNamesOnDirectives",
       "type Query { a: Int }\ntype T { a: Int @deprecated(reasn: \"x\") }",
       {
           {"Unknown argument \"reasn\" on directive \"@deprecated\". Did you mean \"reason\"?",
            {{2, 29}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(KnownArgumentNamesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

INSTANTIATE_TEST_SUITE_P(KnownArgumentNamesRule, SdlValidationTest, ::testing::ValuesIn(SdlCases()),
                         CaseName);

}  // namespace
}  // namespace netgraph::graphql
