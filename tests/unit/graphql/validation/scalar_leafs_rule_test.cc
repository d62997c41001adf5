// core/graphql/validation/scalar_leafs_rule.cc: documents with the errors graphql-js 16 reports for
// them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"ScalarLeafsAccepted", R"gql({ dog { name owner { age } } })gql", {}},
      {"ScalarLeafsRejectsSubselectionOnLeaf",
       R"gql({ dog { name { first } } person(name: "a") { color { r } } })gql",
       {{"Field \"name\" must not have a selection since type \"String\" has no subfields.",
         {{1, 14}}},
        {"Field \"color\" must not have a selection since type \"Color\" has no subfields.",
         {{1, 52}}}}},
      {"ScalarLeafsRejectsMissingSubselection",
       R"gql({ dog animal thing dog2: dog { friends } })gql",
       {{"Field \"dog\" of type \"Dog\" must have a selection of subfields. Did you mean \"dog { "
         "... }\"?",
         {{1, 3}}},
        {"Field \"animal\" of type \"Animal\" must have a selection of subfields. Did you mean "
         "\"animal { ... }\"?",
         {{1, 7}}},
        {"Field \"thing\" of type \"Thing\" must have a selection of subfields. Did you mean "
         "\"thing { ... }\"?",
         {{1, 14}}},
        {"Field \"friends\" of type \"[Dog!]!\" must have a selection of subfields. Did you mean "
         "\"friends { ... }\"?",
         {{1, 32}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(ScalarLeafsRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
