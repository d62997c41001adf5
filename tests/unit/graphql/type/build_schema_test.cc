// core/graphql/type/build_schema.cc: what BuildSchema reports beside the SDL rules and schema
// validation (a syntax error, directive arguments it cannot coerce), with graphql-js 16's messages;
// and a valid schema builds without errors.
#include "core/graphql/type/build_schema.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> BuildCases() {
  return {
      {"SyntaxError",
       "type Query { a: }",
       {
           {"Syntax Error: Expected Name, found \"}\".", {{1, 17}}},
       }},
      {"DirectiveArgumentValue",
       "type Query { a: Int }\ntype T { a: Int @deprecated(reason: 123) }",
       {
           {"Argument \"reason\" has invalid value 123.", {{2, 37}}},
       }},
      {"NonNullDirectiveArgument",
       "type Query { a: Int }\nscalar S @specifiedBy(url: null)",
       {
           {"Argument \"url\" of non-null type \"String!\" must not be null.", {{2, 28}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(BuildSchema, SdlValidationTest, ::testing::ValuesIn(BuildCases()),
                         CaseName);

TEST(BuildSchemaTest, AcceptsAValidSchema) {
  std::vector<Error> errors;
  EXPECT_NE(BuildSchema("type Query { a: Int }", &errors), nullptr);
  EXPECT_TRUE(errors.empty());
}

}  // namespace
}  // namespace netgraph::graphql
