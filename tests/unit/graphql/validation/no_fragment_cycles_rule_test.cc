// core/graphql/validation/no_fragment_cycles_rule.cc: documents with the errors graphql-js 16
// reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"NoFragmentCyclesRejected",
       R"gql({ dog { ...A } }
fragment A on Dog { ...B owner { name } }
fragment B on Dog { ...C friends { ...A } }
fragment C on Dog { ...A })gql",
       {{"Cannot spread fragment \"A\" within itself via \"B\", \"C\".",
         {{2, 21}, {3, 21}, {4, 21}}},
        {"Cannot spread fragment \"A\" within itself via \"B\".", {{2, 21}, {3, 36}}}}},
      {"NoFragmentCyclesSelf",
       R"gql({ dog { ...A } }
fragment A on Dog { name ...A })gql",
       {{"Cannot spread fragment \"A\" within itself.", {{2, 26}}}}},
  };
}

INSTANTIATE_TEST_SUITE_P(NoFragmentCyclesRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
