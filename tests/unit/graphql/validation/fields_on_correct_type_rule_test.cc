// core/graphql/validation/fields_on_correct_type_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"FieldsOnCorrectTypeAccepted",
       R"gql({ dog { name barks } animal { legs ... on Bird { wingspan(unit: "cm") } }
  thing {
  __typename } })gql",
       {}},
      {"FieldsOnCorrectTypeSuggestsFields",
       R"gql({ dog { nme } })gql",
       {{"Cannot query field \"nme\" on type \"Dog\". Did you mean \"name\"?", {{1, 9}}}}},
      {"FieldsOnCorrectTypeSuggestsTypes",
       R"gql({ animal { barks } named { name } })gql",
       {{"Cannot query field \"barks\" on type \"Animal\". Did you mean to use an inline fragment "
         "on \"Dog\"?",
         {{1, 12}}},
        {"Cannot query field \"named\" on type \"Query\".", {{1, 20}}}}},
      {"FieldsOnCorrectTypeOnUnion",
       R"gql({ thing { name } })gql",
       {{"Cannot query field \"name\" on type \"Thing\". Did you mean to use an inline fragment on "
         "\"Named\", \"Animal\", \"Dog\", or \"Person\"?",
         {{1, 11}}}}},
      {"FieldsOnCorrectTypeMetaFields",
       R"gql({ __schema { queryType { name } } dog { __schema { description } } })gql",
       {{"Cannot query field \"__schema\" on type \"Dog\".", {{1, 41}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(FieldsOnCorrectTypeRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
