// graphql-js's maxErrors cut-off and MaxIntrospectionDepthRule, netgraph's depth and alias limits,
// and documents built to make validation slow (OverlappingFieldsCanBeMerged above all).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::string Repeat(const std::string& text, int times) {
  std::string result;
  for (int i = 0; i < times; ++i) result += text;
  return result;
}

std::vector<std::string> Messages(const std::vector<Error>& errors) {
  std::vector<std::string> messages;
  for (const Error& error : errors) messages.push_back(error.message);
  return messages;
}

TEST(MaxErrorsTest, StopsAfterTheLimitWithGraphqlJsMessage) {
  std::string document = "{ dog {";
  for (int i = 0; i < 120; ++i) document += " f" + std::to_string(i);
  document += " } }";
  std::vector<Error> errors = ErrorsOf(document);
  ASSERT_EQ(errors.size(), 101u);
  EXPECT_EQ(errors[99].message, "Cannot query field \"f99\" on type \"Dog\".");
  EXPECT_EQ(errors[100].message,
            "Too many validation errors, error limit reached. Validation aborted.");
  EXPECT_TRUE(errors[100].locations.empty());

  ValidationOptions options;
  options.max_errors = 2;
  errors = ErrorsOf(document, options);
  EXPECT_EQ(Messages(errors),
            (std::vector<std::string>{
                "Cannot query field \"f0\" on type \"Dog\".",
                "Cannot query field \"f1\" on type \"Dog\".",
                "Too many validation errors, error limit reached. Validation aborted."}));
}

TEST(MaxErrorsTest, ExactlyTheLimitIsNotCut) {
  std::string document = "{ dog {";
  for (int i = 0; i < 3; ++i) document += " f" + std::to_string(i);
  document += " } }";
  ValidationOptions options;
  options.max_errors = 3;
  EXPECT_EQ(ErrorsOf(document, options).size(), 3u);
}

TEST(MaxIntrospectionDepthTest, ReportsListsNestedThreeDeep) {
  const std::string deep =
      "{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }";
  std::vector<Error> errors = ErrorsOf(deep);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "Maximum introspection depth exceeded");
  EXPECT_EQ(errors[0].locations[0].column, 3);

  EXPECT_TRUE(ErrorsOf("{ __schema { types { fields { type { fields { name } } } } } }").empty());
  ValidationOptions stricter;
  stricter.max_introspection_depth = 2;
  EXPECT_EQ(
      ErrorsOf("{ __schema { types { fields { type { fields { name } } } } } }", stricter).size(),
      1u);
}

TEST(MaxIntrospectionDepthTest, FollowsFragmentsOnceEach) {
  // Each fragment spreads the next twice: 2^40 paths, one answer per fragment and depth.
  std::string document = "{ __type(name: \"Dog\") { ...F0 } }\n";
  for (int i = 0; i < 40; ++i) {
    document += "fragment F" + std::to_string(i) + " on __Type { ofType { ...F" +
                std::to_string(i + 1) + " } name ...F" + std::to_string(i + 1) + " }\n";
  }
  document +=
      "fragment F40 on __Type { fields { type { interfaces { possibleTypes { name } } } } }\n";
  std::vector<Error> errors = ErrorsOf(document);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "Maximum introspection depth exceeded");
}

TEST(MaxDepthTest, ReportsOperationsNestedTooDeep) {
  ValidationOptions options;
  options.max_depth = 3;
  EXPECT_TRUE(ErrorsOf("{ dog { owner { name } } }", options).empty());
  std::vector<Error> errors =
      ErrorsOf("query Deep { dog { friends { owner { name } } } }", options);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "Query depth 4 exceeds the maximum of 3.");
  EXPECT_EQ(errors[0].locations[0].line, 1);
  EXPECT_EQ(errors[0].locations[0].column, 1);
}

TEST(MaxDepthTest, FollowsFragmentsAndIgnoresIntrospection) {
  ValidationOptions options;
  options.max_depth = 2;
  EXPECT_EQ(Messages(ErrorsOf("{ dog { ...F } }\nfragment F on Dog { owner { name } }", options)),
            std::vector<std::string>{"Query depth 3 exceeds the maximum of 2."});
  EXPECT_TRUE(ErrorsOf("{ __schema { types { fields { type { name } } } } dog { name } }", options)
                  .empty());
  EXPECT_TRUE(ErrorsOf("{ dog { __typename owner { __typename } } }", options).empty());
}

TEST(MaxDepthTest, FragmentCyclesEndAndAreReportedOnce) {
  ValidationOptions options;
  options.max_depth = 5;
  std::vector<Error> errors =
      ErrorsOf("{ dog { ...A } }\nfragment A on Dog { friends { ...A } }", options);
  EXPECT_EQ(Messages(errors),
            std::vector<std::string>{"Cannot spread fragment \"A\" within itself."});
}

TEST(MaxDepthTest, OffByDefault) {
  EXPECT_TRUE(ErrorsOf("{ dog { friends { friends { friends { friends { name } } } } } }").empty());
}

TEST(MaxAliasesTest, CountsAliasesWhereFragmentsAreSpread) {
  ValidationOptions options;
  options.max_aliases = 3;
  EXPECT_EQ(ErrorsOf("{ a: dog { n: name } b: dog { n: name } }", options).size(), 1u);
  EXPECT_TRUE(ErrorsOf("{ a: dog { n: name } b: dog { name } }", options).empty());
  std::vector<Error> errors =
      ErrorsOf("query Q { dog { ...F ...F } }\nfragment F on Dog { x: name y: legs }", options);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "Query has 4 aliases, which exceeds the maximum of 3.");
  EXPECT_TRUE(
      ErrorsOf("query Q { dog { ...F ...F } }\nfragment F on Dog { x: name y: legs }").empty());
}

// Validates a document built to be slow to validate (graphql-js takes seconds on these), expecting
// an answer within a second even in a sanitizer build.
std::vector<Error> ErrorsWithinASecond(const std::string& document) {
  auto start = std::chrono::steady_clock::now();
  std::vector<Error> errors = ErrorsOf(document);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  return errors;
}

// graphql-js compares every pair of fields with the same response name, and their subfields
// pairwise: quadratic in the copies at each level, compounding with nesting. Identical copies
// are compared once here.
TEST(AdversarialDocumentTest, ManyRepeatedFields) {
  const std::string nested = "friends { " + Repeat("friends { name legs } ", 50) + "} ";
  std::vector<Error> errors =
      ErrorsWithinASecond("{ dog { " + Repeat(nested, 100) + Repeat("name ", 3000) + "} }");
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

TEST(AdversarialDocumentTest, RepeatedFieldsWithOneConflictStillReportIt) {
  std::vector<Error> errors =
      ErrorsWithinASecond("{ dog { " + Repeat("owner { name } ", 2000) + "owner { name: age } } }");
  ASSERT_EQ(errors.size(), 101u);  // each copy conflicts with the last one: cut at 100
  EXPECT_EQ(errors[0].message,
            "Fields \"owner\" conflict because subfields \"name\" conflict because \"name\" and "
            "\"age\" are different fields. Use different aliases on the fields to fetch both if "
            "this was intentional.");
}

TEST(AdversarialDocumentTest, ManyFragmentsSpreadingEachOther) {
  // Each fragment spreads every seventh later one; the operation spreads them all.
  const int kFragments = 150;
  std::string document = "{ dog { ";
  for (int i = 0; i < kFragments; ++i) document += "...F" + std::to_string(i) + " ";
  document += "} }\n";
  for (int i = 0; i < kFragments; ++i) {
    document += "fragment F" + std::to_string(i) + " on Dog { name friends { name } ";
    for (int j = i + 1; j < kFragments; j += 7) document += "...F" + std::to_string(j) + " ";
    document += "}\n";
  }
  std::vector<Error> errors = ErrorsWithinASecond(document);
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

TEST(AdversarialDocumentTest, ManyFieldsSpreadingOneFragment) {
  std::vector<Error> errors = ErrorsWithinASecond("{ dog { " + Repeat("friends { ...F } ", 1500) +
                                                  "} }\nfragment F on Dog { name legs }");
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

}  // namespace
}  // namespace netgraph::graphql
