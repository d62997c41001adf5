// core/graphql/type/schema_validation.cc: every kind of error graphql-js 16's validateSchema
// reports, with its message and locations (taken from graphql-js on the same SDL). The SDL rules'
// errors are tested with each rule (tests/unit/graphql/validation/).
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

std::vector<ValidationCase> SchemaCases() {
  return {
      {"MissingQueryRoot",
       "type Foo { a: Int }",
       {
           {"Query root type must be provided.", {}},
       }},
      {"QueryRootNotObject",
       "schema { query: Q }\nenum Q { A }",
       {
           {"Query root type must be Object type, it cannot be Q.", {{1, 17}}},
       }},
      {"MutationRootNotObject",
       "type Query { a: Int }\nschema { query: Query mutation: I }\ninput I { a: Int }",
       {
           {"Mutation root type must be Object type if provided, it cannot be I.", {{2, 33}}},
       }},
      {"ReservedNames",
       "type Query { __a: Int }\nenum E { __B }\ndirective @__d(__x: Int) on FIELD",
       {
           {"Name \"__d\" must not begin with \"__\", which is reserved by GraphQL introspection.",
            {{3, 1}}},
           {"Name \"__x\" must not begin with \"__\", which is reserved by GraphQL introspection.",
            {{3, 16}}},
           {"Name \"__a\" must not begin with \"__\", which is reserved by GraphQL introspection.",
            {{1, 14}}},
           {"Name \"__B\" must not begin with \"__\", which is reserved by GraphQL introspection.",
            {{2, 10}}},
       }},
      {"EmptyTypes",
       "type Query { a: Int }\ntype T\ninterface I\nunion U\nenum E\ninput In",
       {
           {"Type T must define one or more fields.", {{2, 1}}},
           {"Type I must define one or more fields.", {{3, 1}}},
           {"Union type U must define one or more member types.", {{4, 1}}},
           {"Enum type E must define one or more values.", {{5, 1}}},
           {"Input Object type In must define one or more fields.", {{6, 1}}},
       }},
      {"OutputAndInputTypes",
       "type Query { a: Int }\ntype T { a: In b(x: T): Int }\ninput In { a: T }\ndirective @d(x: "
       "Query) on FIELD",
       {
           {"The type of @d(x:) must be Input Type but got: Query.", {{4, 14}}},
           {"The type of T.a must be Output Type but got: In.", {{2, 13}}},
           {"The type of T.b(x:) must be Input Type but got: T.", {{2, 21}}},
           {"The type of In.a must be Input Type but got: T.", {{3, 15}}},
       }},
      {"InterfaceFieldMissing",
       "type Query { a: Int }\ntype T implements I { a: Int }\ninterface I { a: Int b: String }",
       {
           {"Interface field I.b expected but T does not provide it.", {{3, 22}, {2, 1}}},
       }},
      {"InterfaceFieldType",
       "type Query { a: Int }\ntype T implements I { a: String }\ninterface I { a: Int }",
       {
           {"Interface field I.a expects type Int but T.a is type String.", {{3, 18}, {2, 26}}},
       }},
      {"InterfaceArguments",
       "type Query { a: Int }\ntype T implements I { a(x: Int, y: Int!): Int b: Int }\ninterface I "
       "{ a(x: String): Int b(z: Int): Int }",
       {
           {"Interface field argument I.a(x:) expects type String but T.a(x:) is type Int.",
            {{3, 20}, {2, 28}}},
           {"Object field T.a includes required argument y that is missing from the Interface "
            "field I.a.",
            {{2, 33}, {3, 15}}},
           {"Interface field argument I.b(z:) expected but T.b does not provide it.",
            {{3, 35}, {2, 47}}},
       }},
      {"ImplementsNonInterface",
       "type Query { a: Int }\ntype T implements Query & I & I { a: Int }\ninterface I { a: Int }",
       {
           {"Type T must only implement Interface types, it cannot implement Query.", {{2, 19}}},
           {"Type T can only implement I once.", {{2, 27}, {2, 31}}},
       }},
      {"InterfaceCycles",
       "type Query { a: Int }\ninterface I implements I { a: Int }\ninterface J implements K { a: "
       "Int }\ninterface K implements J { a: Int }",
       {
           {"Type I cannot implement itself because it would create a circular reference.",
            {{2, 24}}},
           {"Type J cannot implement K because it would create a circular reference.",
            {{4, 24}, {3, 24}}},
           {"Type K cannot implement J because it would create a circular reference.",
            {{3, 24}, {4, 24}}},
       }},
      {"TransitiveInterfaces",
       "type Query { a: Int }\ntype T implements J { a: Int }\ninterface J implements I { a: Int "
       "}\ninterface I { a: Int }",
       {
           {"Type T must implement I because it is implemented by J.", {{3, 24}, {2, 19}}},
       }},
      {"UnionMembers",
       "type Query { a: Int }\nunion U = Query | Query | I\ninterface I { a: Int }",
       {
           {"Union type U can only include type Query once.", {{2, 11}, {2, 19}}},
           {"Union type U can only include Object types, it cannot include I.", {{2, 27}}},
       }},
      {"DeprecatedRequired",
       "type Query { a: Int }\ntype T { a(x: Int! @deprecated): Int }\ninput In { a: Int! "
       "@deprecated }\ndirective @d(x: Int! @deprecated) on FIELD",
       {
           {"Required argument @d(x:) cannot be deprecated.", {{4, 22}, {4, 17}}},
           {"Required argument T.a(x:) cannot be deprecated.", {{2, 20}, {2, 15}}},
           {"Required input field In.a cannot be deprecated.", {{3, 20}, {3, 15}}},
       }},
      {"OneOf",
       "type Query { a: Int }\ninput In @oneOf { a: Int! b: Int = 1 }",
       {
           {"OneOf input field In.a must be nullable.", {{2, 22}}},
           {"OneOf input field In.b cannot have a default value.", {{2, 27}}},
       }},
      {"InputCycles",
       "type Query { a: Int }\ninput A { b: B! }\ninput B { a: A! c: [A!]! }\ninput C { c: C! }",
       {
           {"Cannot reference Input Object \"A\" within itself through a series of non-null "
            "fields: \"b.a\".",
            {{2, 11}, {3, 11}}},
           {"Cannot reference Input Object \"C\" within itself through a series of non-null "
            "fields: \"c\".",
            {{4, 11}}},
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(SchemaValidation, SdlValidationTest, ::testing::ValuesIn(SchemaCases()),
                         CaseName);

}  // namespace
}  // namespace netgraph::graphql
