#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/unit/graphql/test_engine.h"

namespace netgraph::graphql {
namespace {

using test::Body;
using test::MakeRequest;
using test::MustCreate;
using test::ReadSourceFile;
using test::Request;
using test::RunRequest;
using ::testing::HasSubstr;

std::string RichSchema() {
  return ReadSourceFile("tests/unit/graphql/testdata/rich_schema.graphql");
}

// graphql-js's getIntrospectionQuery with every option on.
std::string IntrospectionQuery() {
  return ReadSourceFile("tests/unit/graphql/execution/testdata/introspection_query.graphql");
}

// rich_schema_introspection.json is graphql-js 16.11's graphqlSync() of that query against the
// rich schema (a schema that uses every construct introspection shows): byte for byte the same.
TEST(IntrospectionTest, FullQueryMatchesGraphqlJs) {
  std::unique_ptr<Engine> engine = MustCreate(RichSchema());
  std::string expected =
      ReadSourceFile("tests/unit/graphql/execution/testdata/rich_schema_introspection.json");
  while (!expected.empty() && expected.back() == '\n') expected.pop_back();
  ExecutionResult result = RunRequest(*engine, MakeRequest(IntrospectionQuery()));
  EXPECT_TRUE(result.has_data);
  EXPECT_EQ(result.Body(), expected);
}

TEST(IntrospectionTest, FieldsAndNullRulesMatchGraphqlJs) {
  std::unique_ptr<Engine> engine = MustCreate(RichSchema());
  const nlohmann::json cases = nlohmann::json::parse(
      ReadSourceFile("tests/unit/graphql/execution/testdata/introspection_cases.json"))["cases"];
  ASSERT_FALSE(cases.empty());
  for (const nlohmann::json& c : cases) {
    Request request = MakeRequest(c["query"].get<std::string>(), R"({"name": "In"})");
    EXPECT_EQ(RunRequest(*engine, request).Body(), c["expected"].get<std::string>())
        << request.query;
  }
}

TEST(IntrospectionTest, ServiceSchemaListsItsTypesAndDirectives) {
  std::unique_ptr<Engine> engine = MustCreate(ReadSourceFile("core/api/schema.graphql"));
  nlohmann::json body =
      nlohmann::json::parse(RunRequest(*engine, MakeRequest(IntrospectionQuery())).Body());
  const nlohmann::json& schema = body["data"]["__schema"];
  EXPECT_EQ(schema["queryType"]["name"], "Query");
  EXPECT_EQ(schema["subscriptionType"]["name"], "Subscription");
  std::vector<std::string> directives;
  for (const nlohmann::json& d : schema["directives"]) directives.push_back(d["name"]);
  EXPECT_THAT(directives,
              ::testing::ElementsAre("include", "skip", "deprecated", "specifiedBy", "oneOf"));
  bool found_date_time = false;
  for (const nlohmann::json& type : schema["types"]) {
    if (type["name"] != "DateTime") continue;
    found_date_time = true;
    EXPECT_EQ(type["specifiedByURL"], "https://scalars.graphql.org/andimarek/date-time");
  }
  EXPECT_TRUE(found_date_time);
}

TEST(IntrospectionTest, PrintsTheSchemaAsGraphqlJs) {
  std::unique_ptr<Engine> engine = MustCreate(ReadSourceFile("core/api/schema.graphql"));
  // graphql-js 16.11's printSchema of the service schema.
  EXPECT_EQ(engine->PrintSchema(),
            ReadSourceFile("tests/unit/graphql/testdata/service_schema_printed.graphql"));
}

// "Did you mean" hints name the schema's fields, arguments, types and values: with introspection
// off they are left out (issue 9, defect 8), as graphql-js's hideSuggestions does.
TEST(IntrospectionTest, SwitchedOffHidesSuggestions) {
  constexpr std::string_view kSchema = R"(
    enum Color { RED GREEN }
    input Filter { color: Color }
    type Query { colour(color: Color, filter: Filter): String }
  )";
  const std::vector<std::pair<std::string, std::string>> requests = {
      {"{ color }", ""},
      {"{ colour(colr: RED) }", ""},
      {"{ colour(color: REDD) }", ""},
      {"query ($c: Colr) { colour(color: $c) }", ""},
      {"query ($c: Color) { colour(color: $c) }", R"({"c": "REDD"})"},
      {"query ($f: Filter) { colour(filter: $f) }", R"({"f": {"colr": "RED"}})"},
  };
  for (bool introspection : {true, false}) {
    EngineOptions options;
    options.introspection = introspection;
    std::unique_ptr<Engine> engine = MustCreate(kSchema, options);
    for (const auto& [query, variables] : requests) {
      ExecutionResult result = RunRequest(*engine, MakeRequest(query, variables));
      EXPECT_FALSE(result.has_data) << query;
      if (introspection) {
        EXPECT_THAT(result.Body(), HasSubstr("Did you mean")) << query;
      } else {
        EXPECT_THAT(result.Body(), ::testing::Not(HasSubstr("Did you mean"))) << query;
        EXPECT_THAT(result.Body(), HasSubstr(R"(.","locations")")) << result.Body();
      }
    }
  }
}

TEST(IntrospectionTest, CanBeSwitchedOff) {
  EngineOptions options;
  options.introspection = false;
  std::unique_ptr<Engine> engine = MustCreate(RichSchema(), options);
  ExecutionResult result = RunRequest(*engine, MakeRequest("{ __schema { types { name } } }"));
  EXPECT_FALSE(result.has_data);
  EXPECT_EQ(result.Body(),
            R"({"errors":[{"message":"Cannot query field \"__schema\" on type \"Root\".",)"
            R"("locations":[{"line":1,"column":3}]}]})");
  result = RunRequest(*engine, MakeRequest("{ extra\n  t: __type(name: \"Root\") { name } }"));
  EXPECT_FALSE(result.has_data);
  EXPECT_THAT(result.Body(), HasSubstr(R"(Cannot query field \"__type\" on type \"Root\".)"));
  EXPECT_THAT(result.Body(), HasSubstr(R"({"line":2,"column":3})"));
  // __typename is not introspection of the schema: it keeps working.
  EXPECT_EQ(Body(*engine, "{ __typename }"), R"({"data":{"__typename":"Root"}})");
}

}  // namespace
}  // namespace netgraph::graphql
