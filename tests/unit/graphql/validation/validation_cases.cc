#include "tests/unit/graphql/validation/validation_cases.h"

#include <gtest/gtest.h>

#include <memory>

#include "core/graphql/language/parser.h"
#include "core/graphql/type/build_schema.h"
#include "tests/unit/graphql/test_engine.h"

namespace netgraph::graphql {

namespace {

constexpr char kTestSchema[] = R"gql(
schema { query: Query mutation: Mutation subscription: Subscription }
directive @onField on FIELD
directive @onQuery on QUERY
directive @tag(name: String) repeatable on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
directive @needs(level: Int!) on FIELD
scalar Json
enum Color { RED GREEN BLUE }
interface Named { name: String }
interface Animal implements Named { name: String legs: Int }
type Dog implements Animal & Named {
  name: String
  legs: Int
  barks: Boolean
  owner: Person
  friends(first: Int = 3): [Dog!]!
}
type Bird implements Animal & Named { name: String legs: Int wingspan(unit: String!): Float }
type Person implements Named { name: String pets: [Animal] age: Int color: Color }
union Thing = Dog | Person
input Filter { color: Color! text: String limit: Int = 10 tags: [String!] inner: Filter }
input Choice @oneOf { id: ID text: String }
type Query {
  dog(id: ID): Dog
  animal: Animal
  thing: Thing
  person(name: String!): Person
  search(filter: Filter, choice: Choice, colors: [Color!]): [Thing]
  count(min: Int, max: Int = 100): Int
  json(value: Json): String
}
type Mutation { rename(id: ID!, name: String!): Dog }
type Subscription { dogAdded: Dog personAdded: Person }
)gql";

}  // namespace

const Schema& TestSchema() {
  static const Schema* schema = [] { return test::MustBuildSchema(kTestSchema).release(); }();
  return *schema;
}

std::vector<Error> ErrorsOf(const std::string& document, const ValidationOptions& options) {
  Error syntax_error;
  std::unique_ptr<const ast::Document> parsed = Parse(document, ParseOptions{}, &syntax_error);
  if (parsed == nullptr) return {syntax_error};
  return Validate(TestSchema(), *parsed, options);
}

std::vector<std::string> Messages(const std::vector<Error>& errors) {
  std::vector<std::string> messages;
  for (const Error& error : errors) messages.push_back(error.message);
  return messages;
}

namespace {

void ExpectErrors(const std::vector<Error>& errors, const ValidationCase& test_case) {
  ASSERT_EQ(errors.size(), test_case.errors.size())
      << test_case.document << "\nfirst error: " << (errors.empty() ? "" : errors[0].message);
  for (std::size_t i = 0; i < errors.size(); ++i) {
    EXPECT_EQ(errors[i].message, test_case.errors[i].message);
    std::vector<std::pair<int, int>> locations;
    for (const SourceLocation& location : errors[i].locations) {
      locations.emplace_back(location.line, location.column);
    }
    EXPECT_EQ(locations, test_case.errors[i].locations) << errors[i].message;
  }
}

}  // namespace

TEST_P(DocumentValidationTest, ReportsGraphqlJsErrors) {
  ExpectErrors(ErrorsOf(GetParam().document), GetParam());
}

TEST_P(SdlValidationTest, ReportsGraphqlJsErrors) {
  std::vector<Error> errors;
  EXPECT_EQ(BuildSchema(GetParam().document, &errors), nullptr);
  ExpectErrors(errors, GetParam());
}

}  // namespace netgraph::graphql
