// core/graphql/validation/known_type_names_rule.cc: documents and SDL with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"KnownTypeNamesAccepted",
       R"gql(query ($f: Filter, $c: [Color!]) { dog { ... on Named { name } } })gql",
       {{"Variable \"$f\" is never used.", {{1, 8}}},
        {"Variable \"$c\" is never used.", {{1, 20}}}}},
      {"KnownTypeNamesRejected",
       R"gql(query ($f: Filtr, $x: [Unknown]) { dog { ... on Dgo { name } ...F } }
fragment F on Nothing { name })gql",
       {{"Unknown type \"Filtr\". Did you mean \"Filter\", \"Color\", or \"Int\"?", {{1, 12}}},
        {"Unknown type \"Unknown\".", {{1, 24}}},
        {"Unknown type \"Dgo\". Did you mean \"Dog\"?", {{1, 49}}},
        {"Variable \"$f\" is never used.", {{1, 8}}},
        {"Variable \"$x\" is never used.", {{1, 19}}},
        {"Unknown type \"Nothing\". Did you mean \"Thing\" or \"String\"?", {{2, 15}}}}},
      {"KnownTypeNamesInTypeSystemDefinitions",
       R"gql(type Cat { a: Strng b: __Type c: Str })gql",
       {{"The \"Cat\" definition is not executable.", {{1, 1}}},
        {"Unknown type \"Strng\". Did you mean \"String\" or \"Thing\"?", {{1, 15}}},
        {"Unknown type \"Str\".", {{1, 34}}}}},
  };
}

std::vector<ValidationCase> SdlCases() {
  return {
      {"KnownTypeNames",
       "type Query { a: Int }\ntype T { a: Quer b: Strin }",
       {
           {"Unknown type \"Quer\". Did you mean \"Query\"?", {{2, 13}}},
           {"Unknown type \"Strin\". Did you mean \"String\"?", {{2, 21}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(KnownTypeNamesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

INSTANTIATE_TEST_SUITE_P(KnownTypeNamesRule, SdlValidationTest, ::testing::ValuesIn(SdlCases()),
                         CaseName);

}  // namespace
}  // namespace netgraph::graphql
