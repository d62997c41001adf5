// core/graphql/validation/validate.cc: graphql-js's maxErrors cut-off, and documents built to make
// validation slow (OverlappingFieldsCanBeMerged above all).
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
