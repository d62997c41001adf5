// core/graphql/validation/executable_definitions_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"ExecutableDefinitionsAccepted",
       R"gql(query A { dog { name } }
fragment F on Dog { name })gql",
       {{"Fragment \"F\" is never used.", {{2, 1}}}}},
      {"ExecutableDefinitionsRejectsTypeSystem",
       R"gql({ dog { name } }
type Cat { name: String }
extend schema @onQuery
directive @d on FIELD)gql",
       {{"The \"Cat\" definition is not executable.", {{2, 1}}},
        {"The schema definition is not executable.", {{3, 1}}},
        {"The \"d\" definition is not executable.", {{4, 1}}},
        {"Directive \"@onQuery\" may not be used on SCHEMA.", {{3, 15}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(ExecutableDefinitionsRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
