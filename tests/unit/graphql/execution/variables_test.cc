// Variable coercion through the engine: every scalar and wrapper rule of graphql-js's
// coerceVariableValues, with its messages. testdata/coercion_cases.json holds the cases and the
// bodies graphql-js 16.11 returns for them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/graphql/execution/variables.h"
#include "tests/unit/graphql/test_engine.h"

namespace netgraph::graphql {
namespace {

using test::MustCreate;
using test::ReadSourceFile;
using test::Request;
using test::RunRequest;

nlohmann::json Cases() {
  return nlohmann::json::parse(
      ReadSourceFile("tests/unit/graphql/execution/testdata/coercion_cases.json"));
}

// `echo` and `req` return their coerced arguments.
std::unique_ptr<Engine> EchoEngine(const EngineOptions& options = {}) {
  std::unique_ptr<Engine> engine = MustCreate(Cases()["schema"].get<std::string>(), options);
  auto echo = [](const ResolveInfo& info) -> ResolverResult { return info.arguments; };
  EXPECT_TRUE(engine->BindResolver("Query.echo", echo).ok());
  EXPECT_TRUE(engine->BindResolver("Query.req", echo).ok());
  return engine;
}

TEST(CoercionTest, MatchesGraphqlJs) {
  std::unique_ptr<Engine> engine = EchoEngine();
  const nlohmann::json cases = Cases()["cases"];
  ASSERT_GT(cases.size(), 30u);
  for (const nlohmann::json& c : cases) {
    Request request;
    request.query = c["query"].get<std::string>();
    request.variables = c["variables"].get<std::string>();
    const std::string expected = c["expected"].get<std::string>();
    ExecutionResult result = RunRequest(*engine, request);
    EXPECT_EQ(result.Body(), expected) << request.query << " with " << request.variables;
    EXPECT_EQ(result.has_data, expected.starts_with("{\"data\""));
  }
}

TEST(CoercionTest, StopsAfterFiftyErrors) {
  EngineOptions options;
  options.limits.max_aliases = 100;
  std::unique_ptr<Engine> engine = EchoEngine(options);
  std::string definitions;
  std::string uses;
  nlohmann::json variables = nlohmann::json::object();
  for (int i = 0; i < 60; ++i) {
    const std::string name = "v" + std::to_string(i);
    definitions += (i > 0 ? ", $" : "$") + name + ": Int";
    uses += " a" + std::to_string(i) + ": echo(i: $" + name + ")";
    variables[name] = "not an int";
  }
  Request request;
  request.query = "query (" + definitions + ") {" + uses + " }";
  request.variables = variables.dump();
  ExecutionResult result = RunRequest(*engine, request);
  EXPECT_FALSE(result.has_data);
  nlohmann::json body = nlohmann::json::parse(result.Body());
  ASSERT_EQ(body["errors"].size(), 51u);
  EXPECT_EQ(body["errors"][0]["message"],
            "Variable \"$v0\" got invalid value \"not an int\"; Int cannot represent non-integer "
            "value: \"not an int\"");
  EXPECT_EQ(body["errors"][50]["message"],
            "Too many errors processing variables, error limit reached. Execution aborted.");
  EXPECT_FALSE(body["errors"][50].contains("locations"));
}

TEST(CoercionTest, RefusesVariablesNestedTooDeeply) {
  std::unique_ptr<Engine> engine = EchoEngine();
  std::string deep = "1";
  for (std::size_t i = 0; i < kMaxVariableNesting + 1; ++i) deep = "[" + deep + "]";
  Request request;
  request.query = "query ($j: JSON) { echo(j: $j) }";
  request.variables = R"({"j": )" + deep + "}";
  ExecutionResult result = RunRequest(*engine, request);
  EXPECT_FALSE(result.has_data);
  EXPECT_EQ(result.Body(), R"({"errors":[{"message":"Variables nest deeper than 64 levels."}]})");

  // One level less is fine.
  deep = deep.substr(1, deep.size() - 2);
  request.variables = R"({"j": )" + deep + "}";
  EXPECT_TRUE(RunRequest(*engine, request).has_data);
}

}  // namespace
}  // namespace netgraph::graphql
