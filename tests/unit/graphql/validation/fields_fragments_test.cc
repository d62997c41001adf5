// Field selections, leaf selections, type names, and every fragment rule.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> FieldsAndFragmentsCases() {
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
      {"FragmentsOnCompositeTypesAccepted",
       R"gql({ dog { ... on Animal { legs } ...F } }
fragment F on Thing { __typename })gql",
       {}},
      {"FragmentsOnCompositeTypesRejected",
       R"gql({ dog { ... on Boolean { x } ...F } }
fragment F on Filter { text })gql",
       {{"Fragment cannot condition on non composite type \"Boolean\".", {{1, 16}}},
        {"Fragment \"F\" cannot condition on non composite type \"Filter\".", {{2, 15}}}}},
      {"UniqueFragmentNamesRejected",
       R"gql({ dog { ...F } }
fragment F on Dog { name }
fragment F on Dog { legs })gql",
       {{"There can be only one fragment named \"F\".", {{2, 10}, {3, 10}}}}},
      {"KnownFragmentNamesRejected",
       R"gql({ dog { ...Nope owner { ...AlsoNope } } })gql",
       {{"Unknown fragment \"Nope\".", {{1, 12}}}, {"Unknown fragment \"AlsoNope\".", {{1, 28}}}}},
      {"NoUnusedFragmentsRejected",
       R"gql({ dog { ...Used } }
fragment Used on Dog { name }
fragment Unused on Dog { ...AlsoUnused }
fragment AlsoUnused on Dog { legs })gql",
       {{"Fragment \"Unused\" is never used.", {{3, 1}}},
        {"Fragment \"AlsoUnused\" is never used.", {{4, 1}}}}},
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

class FieldsAndFragmentsTest : public ::testing::TestWithParam<ValidationCase> {};

TEST_P(FieldsAndFragmentsTest, ReportsGraphqlJsErrors) { ExpectCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Rules, FieldsAndFragmentsTest,
                         ::testing::ValuesIn(FieldsAndFragmentsCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
