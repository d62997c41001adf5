// core/graphql/validation/possible_fragment_spreads_rule.cc: documents with the errors graphql-js
// 16 reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"PossibleFragmentSpreadsAccepted",
       R"gql({ dog { ...OnAnimal } animal { ... on Dog { barks } } thing { ... on Named {
  name }
  } }
fragment OnAnimal on Animal { legs })gql",
       {}},
      {"PossibleFragmentSpreadsRejected",
       R"gql({ dog { ... on Bird { legs } ...OnPerson } thing { ... on Bird { legs } } }
fragment OnPerson on Person { age })gql",
       {{"Fragment cannot be spread here as objects of type \"Dog\" can never be of type \"Bird\".",
         {{1, 9}}},
        {"Fragment \"OnPerson\" cannot be spread here as objects of type \"Dog\" can never be of "
         "type \"Person\".",
         {{1, 30}}},
        {"Fragment cannot be spread here as objects of type \"Thing\" can never be of type "
         "\"Bird\".",
         {{1, 52}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(PossibleFragmentSpreadsRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
