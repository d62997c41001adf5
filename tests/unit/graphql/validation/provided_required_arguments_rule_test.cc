// core/graphql/validation/provided_required_arguments_rule.cc: documents and SDL with the errors
// graphql-js 16 reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"ProvidedRequiredArgumentsAccepted", R"gql({ person(name: "a") { age } count })gql", {}},
      {"ProvidedRequiredArgumentsRejected",
       R"gql({ person { age } animal { ... on Bird { wingspan } } dog { name @needs @skip
  } })gql",
       {{"Field \"person\" argument \"name\" of type \"String!\" is required, but it was not "
         "provided.",
         {{1, 3}}},
        {"Field \"wingspan\" argument \"unit\" of type \"String!\" is required, but it was not "
         "provided.",
         {{1, 41}}},
        {"Directive \"@needs\" argument \"level\" of type \"Int!\" is required, but it was not "
         "provided.",
         {{1, 65}}},
        {"Directive \"@skip\" argument \"if\" of type \"Boolean!\" is required, but it was not "
         "provided.",
         {{1, 72}}}}},
  };
}

std::vector<ValidationCase> SdlCases() {
  return {
      {"ProvidedRequiredArgumentsOnDirectives",
       "type Query { a: Int }\nscalar S @specifiedBy",
       {
           {"Directive \"@specifiedBy\" argument \"url\" of type \"String!\" is required, but it "
            "was not provided.",
            {{2, 10}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(ProvidedRequiredArgumentsRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

INSTANTIATE_TEST_SUITE_P(ProvidedRequiredArgumentsRule, SdlValidationTest,
                         ::testing::ValuesIn(SdlCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
