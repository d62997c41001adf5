// core/graphql/validation/overlapping_fields_can_be_merged_rule.cc: documents with the errors
// graphql-js 16 reports for them.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> DocumentCases() {
  return {
      {"OverlappingFieldsAccepted",
       R"gql({ dog { name name n: name ...F ... on Dog { name } } animal { ... on Dog {
  x: barks
  } ... on Bird { x: wingspan(unit: "m") } } }
fragment F on Dog { name })gql",
       {{"Fields \"x\" conflict because they return conflicting types \"Boolean\" and \"Float\". "
         "Use different aliases on the fields to fetch both if this was intentional.",
         {{2, 3}, {3, 19}}}}},
      {"OverlappingFieldsDifferentFields",
       R"gql({ dog { x: name x: legs } })gql",
       {{"Fields \"x\" conflict because \"name\" and \"legs\" are different fields. Use different "
         "aliases on the fields to fetch both if this was intentional.",
         {{1, 9}, {1, 17}}}}},
      {"OverlappingFieldsDifferentArguments",
       R"gql({ dog { friends(first: 1) { name } friends(first: 2) { name } friends { name
  } } })gql",
       {{"Fields \"friends\" conflict because they have differing arguments. Use different aliases "
         "on the fields to fetch both if this was intentional.",
         {{1, 9}, {1, 36}}},
        {"Fields \"friends\" conflict because they have differing arguments. Use different aliases "
         "on the fields to fetch both if this was intentional.",
         {{1, 9}, {1, 63}}},
        {"Fields \"friends\" conflict because they have differing arguments. Use different aliases "
         "on the fields to fetch both if this was intentional.",
         {{1, 36}, {1, 63}}}}},
      {"OverlappingFieldsConflictingTypes",
       R"gql({ animal { ... on Dog { x: barks } ... on Bird { x: wingspan(unit: "m") } }
  thing {
  ... on Dog { y: name } ... on Person { y: age } } })gql",
       {{"Fields \"x\" conflict because they return conflicting types \"Boolean\" and \"Float\". "
         "Use different aliases on the fields to fetch both if this was intentional.",
         {{1, 25}, {1, 50}}},
        {"Fields \"y\" conflict because they return conflicting types \"String\" and \"Int\". Use "
         "different aliases on the fields to fetch both if this was intentional.",
         {{3, 16}, {3, 42}}}}},
      {"OverlappingFieldsSubfields",
       R"gql({ dog { owner { x: name } owner { x: age } friends { a: name b: legs }
  friends { a:
  legs b: name } } })gql",
       {{"Fields \"owner\" conflict because subfields \"x\" conflict because \"name\" and \"age\" "
         "are different fields. Use different aliases on the fields to fetch both if this was "
         "intentional.",
         {{1, 9}, {1, 17}, {1, 27}, {1, 35}}},
        {"Fields \"friends\" conflict because subfields \"a\" conflict because \"name\" and "
         "\"legs\" are different fields and subfields \"b\" conflict because \"legs\" and \"name\" "
         "are different fields. Use different aliases on the fields to fetch both if this was "
         "intentional.",
         {{1, 44}, {1, 54}, {1, 62}, {2, 3}, {2, 13}, {3, 8}}}}},
      {"OverlappingFieldsThroughFragments",
       R"gql({ dog { ...A ...B x: barks } }
fragment A on Dog { x: name }
fragment B on Dog { x: legs owner { ...C } }
fragment C on Person { name })gql",
       {{"Fields \"x\" conflict because \"barks\" and \"name\" are different fields. Use different "
         "aliases on the fields to fetch both if this was intentional.",
         {{1, 19}, {2, 21}}},
        {"Fields \"x\" conflict because \"name\" and \"legs\" are different fields. Use different "
         "aliases on the fields to fetch both if this was intentional.",
         {{2, 21}, {3, 21}}},
        {"Fields \"x\" conflict because \"barks\" and \"legs\" are different fields. Use different "
         "aliases on the fields to fetch both if this was intentional.",
         {{1, 19}, {3, 21}}}}},
      {"OverlappingFieldsObjectArgumentsInAnyOrder",
       R"gql({ search(filter: { color: RED, text: "a" }) { __typename } search(filter: {
  text:
  "a", color: RED }) { __typename } })gql",
       {}},
  };
}

INSTANTIATE_TEST_SUITE_P(OverlappingFieldsCanBeMergedRule, DocumentValidationTest,
                         ::testing::ValuesIn(DocumentCases()), CaseName);

}  // namespace
}  // namespace netgraph::graphql
