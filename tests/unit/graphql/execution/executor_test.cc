#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/graphql/type/build_schema.h"
#include "tests/unit/graphql/test_engine.h"

namespace netgraph::graphql {
namespace {

using test::Body;
using test::Json;
using test::MakeRequest;
using test::MustCreate;
using test::ReadSourceFile;
using test::Request;
using test::RunRequest;
using ::testing::HasSubstr;

// Binds every object field of `sdl` to the resolver that testdata/execution_cases.json describes.
void BindCaseResolvers(std::string_view sdl, Engine* engine) {
  std::vector<Error> errors;
  std::unique_ptr<const Schema> schema = BuildSchema(std::string(sdl), &errors);
  ASSERT_NE(schema, nullptr);
  for (const NamedType* type : schema->types()) {
    if (type->kind != TypeKind::kObject || type->is_introspection()) continue;
    for (const Field& field : type->fields) {
      const std::string coordinate = std::string(type->name) + "." + std::string(field.name);
      Status bound =
          engine->BindResolver(coordinate, [](const ResolveInfo& info) -> ResolverResult {
            const Value* value = info.parent.Find(info.field_name);
            if (value == nullptr) return Value();
            if (const Value* message = value->Find("__error")) {
              const Value* code = value->Find("code");
              return ResolverResult::Error(message->as_string(), code ? code->as_string() : "");
            }
            if (value->Find("__args") != nullptr) return info.arguments;
            return *value;
          });
      ASSERT_TRUE(bound.ok()) << bound.message();
    }
  }
}

TEST(ExecutionTest, MatchesGraphqlJs) {
  const nlohmann::json file = nlohmann::json::parse(
      ReadSourceFile("tests/unit/graphql/execution/testdata/execution_cases.json"));
  std::size_t cases = 0;
  for (const nlohmann::json& group : file["groups"]) {
    const std::string sdl = group["schema"].get<std::string>();
    std::unique_ptr<Engine> engine = MustCreate(sdl);
    BindCaseResolvers(sdl, engine.get());
    for (const nlohmann::json& c : group["cases"]) {
      Request request;
      request.query = c["query"].get<std::string>();
      request.root_value = Value::FromJson(c["data"]);
      if (c.contains("variables")) request.variables = c["variables"].get<std::string>();
      if (c.contains("operationName"))
        request.operation_name = c["operationName"].get<std::string>();
      const std::string expected = c["expected"].get<std::string>();
      ExecutionResult result = RunRequest(*engine, request);
      EXPECT_EQ(result.Body(), expected) << request.query << "\nvariables: " << request.variables;
      EXPECT_EQ(result.has_data, expected.find("\"data\":") != std::string::npos);
      ++cases;
    }
  }
  EXPECT_GT(cases, 100u);
}

constexpr std::string_view kSchema = R"(
  interface Node { id: ID! }
  type Account implements Node { id: ID! owner: String balance(currency: String = "EUR"): Float }
  type Device implements Node { id: ID! model: String }
  union Owned = Account | Device
  type Query {
    node(id: ID!): Node
    nodes: [Node!]!
    owned: [Owned]
    account: Account
    version: String!
    broken: String
  }
  type Mutation { step(n: Int!): Int fail: Int! last: Int }
  type Subscription { ticks: Int }
)";

// A typed object handed between resolvers as a Host value.
struct Account {
  std::string id;
  std::string owner;
  double balance;
};

TEST(ExecutionTest, HostValuesReachChildResolvers) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  ASSERT_TRUE(
      engine
          ->BindResolver(
              "Query.account",
              [](const ResolveInfo&) -> ResolverResult {
                return Value::Host(std::make_shared<const Account>(Account{"a1", "ann", 12.5}));
              })
          .ok());
  ASSERT_TRUE(engine
                  ->BindResolver("Account.id",
                                 [](const ResolveInfo& info) -> ResolverResult {
                                   return Value::String(info.parent.host<Account>()->id);
                                 })
                  .ok());
  ASSERT_TRUE(engine
                  ->BindResolver("Account.balance",
                                 [](const ResolveInfo& info) -> ResolverResult {
                                   const Account* account = info.parent.host<Account>();
                                   std::string currency =
                                       info.arguments.Find("currency")->as_string();
                                   return Value::Float(currency == "EUR" ? account->balance
                                                                         : account->balance * 2);
                                 })
                  .ok());
  // owner has no resolver: the default resolver finds nothing in a Host value.
  EXPECT_EQ(Body(*engine, "{ account { id owner balance usd: balance(currency: \"USD\") } }"),
            R"({"data":{"account":{"id":"a1","owner":null,"balance":12.5,"usd":25}}})");
}

TEST(ExecutionTest, TypeResolversNameTheRuntimeType) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  ASSERT_TRUE(engine
                  ->BindResolver("Query.nodes",
                                 [](const ResolveInfo&) -> ResolverResult {
                                   return Json(R"([{"id": "a", "owner": "x"}, {"id": "d"}])");
                                 })
                  .ok());
  ASSERT_TRUE(
      engine
          ->BindTypeResolver(
              "Node", [](const Value& value) { return value.Find("owner") ? "Account" : "Device"; })
          .ok());
  EXPECT_EQ(
      Body(*engine, "{ nodes { __typename id ... on Account { owner } ... on Device { model } } }"),
      R"({"data":{"nodes":[{"__typename":"Account","id":"a","owner":"x"},)"
      R"({"__typename":"Device","id":"d","model":null}]}})");

  ASSERT_TRUE(engine->BindTypeResolver("Node", [](const Value&) { return "Owned"; }).ok());
  EXPECT_EQ(Body(*engine, "{ nodes { id } }"),
            R"({"errors":[{"message":"Abstract type \"Node\" was resolved to a non-object type )"
            R"(\"Owned\".","locations":[{"line":1,"column":3}],"path":["nodes",0]}],"data":null})");
}

TEST(ExecutionTest, ResolverErrorsCarryCodesAndPaths) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  ASSERT_TRUE(engine
                  ->BindResolver("Query.broken",
                                 [](const ResolveInfo&) {
                                   return ResolverResult::Error("Admin access required",
                                                                "FORBIDDEN");
                                 })
                  .ok());
  EXPECT_EQ(Body(*engine, "{\n  a: broken\n  version\n}", Json(R"({"version": "1"})")),
            R"({"errors":[{"message":"Admin access required","locations":[{"line":2,"column":3}],)"
            R"("path":["a"],"extensions":{"code":"FORBIDDEN"}}],"data":{"a":null,"version":"1"}})");
}

TEST(ExecutionTest, DataAndErrorsComeApart) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  ASSERT_TRUE(engine
                  ->BindResolver("Query.broken",
                                 [](const ResolveInfo&) {
                                   return ResolverResult::Error("Admin access required");
                                 })
                  .ok());
  Request request = MakeRequest("{ broken version }");
  request.root_value = Json(R"({"version": "1"})");
  ExecutionResult result = RunRequest(*engine, request);
  EXPECT_TRUE(result.has_data);
  EXPECT_EQ(result.data, R"({"broken":null,"version":"1"})");
  EXPECT_EQ(result.errors,
            R"([{"message":"Admin access required","locations":[{"line":1,"column":3}],)"
            R"("path":["broken"]}])");
  EXPECT_EQ(result.Body(R"({"sequence":1})"), R"({"errors":)" + result.errors + R"(,"data":)" +
                                                  result.data + R"(,"extensions":{"sequence":1}})");

  request = MakeRequest("{ version }");
  request.root_value = Json(R"({"version": "2"})");
  result = RunRequest(*engine, request);
  EXPECT_EQ(result.errors, "");
  EXPECT_EQ(result.Body(R"({"sequence":2})"),
            R"({"data":{"version":"2"},"extensions":{"sequence":2}})");
}

TEST(ExecutionTest, TheCallerWordsTheRefusalOfASubscription) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  ExecuteParams params;
  params.subscription_refusal = "Subscribe over the other door.";
  ExecutionResult result = engine->Execute(*engine->Prepare("subscription { ticks }"), params);
  EXPECT_FALSE(result.has_data);
  EXPECT_EQ(result.data, "");
  EXPECT_EQ(result.errors, R"([{"message":"Subscribe over the other door.",)"
                           R"("locations":[{"line":1,"column":1}]}])");
}

TEST(ExecutionTest, ThrowingResolversBecomeInternalErrors) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  ASSERT_TRUE(engine
                  ->BindResolver("Query.broken",
                                 [](const ResolveInfo&) -> ResolverResult {
                                   throw std::runtime_error("database password is hunter2");
                                 })
                  .ok());
  const std::string body = Body(*engine, "{ broken }");
  EXPECT_EQ(body,
            R"({"errors":[{"message":"Internal server error","locations":[{"line":1,"column":3}],)"
            R"("path":["broken"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],)"
            R"("data":{"broken":null}})");
}

TEST(ExecutionTest, ResolversSeeArgumentsDefaultsRootValueAndContext) {
  struct Context : RequestContext {
    std::string user = "ann";
  };
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  std::vector<std::string> seen;
  ASSERT_TRUE(engine
                  ->BindResolver("Query.node",
                                 [&seen](const ResolveInfo& info) -> ResolverResult {
                                   seen.push_back(std::string(info.parent_type) + "." +
                                                  std::string(info.field_name) + " " +
                                                  info.parent.Find("tenant")->as_string() + " " +
                                                  static_cast<Context*>(info.context)->user + " " +
                                                  info.arguments.Find("id")->as_string());
                                   return Json(R"({"__typename": "Device", "id": "7"})");
                                 })
                  .ok());
  Context context;
  Request request;
  request.query = "query ($id: ID!) { node(id: $id) { id } }";
  request.variables = R"({"id": 7})";
  request.root_value = Json(R"({"tenant": "t1"})");
  request.context = &context;
  EXPECT_EQ(RunRequest(*engine, request).Body(), R"({"data":{"node":{"id":"7"}}})");
  EXPECT_THAT(seen, ::testing::ElementsAre("Query.node t1 ann 7"));
}

TEST(ExecutionTest, MutationRootFieldsRunInOrderAndStopAtANonNullError) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  std::vector<int> steps;
  ASSERT_TRUE(engine
                  ->BindResolver("Mutation.step",
                                 [&steps](const ResolveInfo& info) -> ResolverResult {
                                   steps.push_back(
                                       static_cast<int>(info.arguments.Find("n")->as_int()));
                                   return Value::Int(static_cast<std::int64_t>(steps.size()));
                                 })
                  .ok());
  ASSERT_TRUE(engine
                  ->BindResolver("Mutation.fail",
                                 [](const ResolveInfo&) { return ResolverResult::Error("no"); })
                  .ok());
  EXPECT_EQ(Body(*engine, "mutation { a: step(n: 3) b: step(n: 1) c: step(n: 2) }"),
            R"({"data":{"a":1,"b":2,"c":3}})");
  EXPECT_THAT(steps, ::testing::ElementsAre(3, 1, 2));
  steps.clear();
  EXPECT_EQ(Body(*engine, "mutation { a: step(n: 1) fail b: step(n: 2) }"),
            R"({"errors":[{"message":"no","locations":[{"line":1,"column":26}],"path":["fail"]}],)"
            R"("data":null})");
  EXPECT_THAT(steps, ::testing::ElementsAre(1));
}

TEST(ExecutionTest, SelectsTheOperation) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  const Value root = Json(R"({"version": "v"})");
  Request request;
  request.query = "query A { a: version } query B { b: version }";
  request.root_value = root;
  ExecutionResult result = RunRequest(*engine, request);
  EXPECT_FALSE(result.has_data);
  EXPECT_EQ(result.Body(),
            R"({"errors":[{"message":"Must provide operation name if query contains multiple )"
            R"(operations."}]})");
  request.operation_name = "B";
  EXPECT_EQ(RunRequest(*engine, request).Body(), R"({"data":{"b":"v"}})");
  request.operation_name = "C";
  EXPECT_EQ(RunRequest(*engine, request).Body(),
            R"({"errors":[{"message":"Unknown operation named \"C\"."}]})");

  std::shared_ptr<const PreparedDocument> document = engine->Prepare(request.query);
  EXPECT_EQ(document->OperationTypeFor("B"), OperationType::kQuery);
  EXPECT_EQ(document->OperationTypeFor(std::nullopt), std::nullopt);
  EXPECT_EQ(document->OperationTypeFor("C"), std::nullopt);
  EXPECT_EQ(engine->Prepare("mutation M { last }")->OperationTypeFor(std::nullopt),
            OperationType::kMutation);
}

TEST(ExecutionTest, RefusesSubscriptionsAndInvalidDocuments) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  ExecutionResult result = RunRequest(*engine, MakeRequest("subscription { ticks }"));
  EXPECT_FALSE(result.has_data);
  EXPECT_EQ(result.Body(),
            R"({"errors":[{"message":"Subscription operations are not executed here.",)"
            R"("locations":[{"line":1,"column":1}]}]})");

  result = RunRequest(*engine, MakeRequest("{ version"));
  EXPECT_FALSE(result.has_data);
  EXPECT_EQ(result.Body(), R"({"errors":[{"message":"Syntax Error: Expected Name, found <EOF>.",)"
                           R"("locations":[{"line":1,"column":10}]}]})");

  result = RunRequest(*engine, MakeRequest("{ nope }"));
  EXPECT_FALSE(result.has_data);
  EXPECT_THAT(result.Body(), HasSubstr(R"(Cannot query field \"nope\" on type \"Query\".)"));
}

TEST(ExecutionTest, RefusesDocumentsOfAnotherEngine) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  std::unique_ptr<Engine> other = MustCreate(kSchema);
  ExecutionResult result = engine->Execute(*other->Prepare("{ version }"), ExecuteParams{});
  EXPECT_FALSE(result.has_data);
  EXPECT_THAT(result.Body(), HasSubstr("not prepared by this engine"));
}

TEST(ExecutionTest, BindingFailsOnUnknownCoordinates) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  auto resolver = [](const ResolveInfo&) -> ResolverResult { return Value(); };
  EXPECT_FALSE(engine->BindResolver("Query.nope", resolver).ok());
  EXPECT_FALSE(engine->BindResolver("Nope.id", resolver).ok());
  EXPECT_FALSE(engine->BindResolver("Query", resolver).ok());
  EXPECT_FALSE(engine->BindResolver("Node.id", resolver).ok());  // an interface
  EXPECT_FALSE(engine->BindResolver("__Type.name", resolver).ok());
  EXPECT_EQ(engine->BindResolver("Query.nope", resolver).message(),
            "BindResolver: the schema has no object field \"Query.nope\"");
  EXPECT_FALSE(engine->BindTypeResolver("Account", [](const Value&) { return ""; }).ok());
  EXPECT_TRUE(engine->BindTypeResolver("Owned", [](const Value&) { return ""; }).ok());
  EXPECT_FALSE(engine->BindSubscribe("Query.version", resolver).ok());
  EXPECT_TRUE(engine->BindSubscribe("Subscription.ticks", resolver).ok());
}

// Plans depend on the @skip/@include variables: each state gets its own, and states beyond what a
// document keeps still execute correctly.
TEST(ExecutionTest, ConditionalSelectionsFollowTheirVariables) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  const std::string query =
      "query ($a: Boolean!, $b: Boolean!, $c: Boolean!, $d: Boolean!, $e: Boolean!) {"
      " a: version @include(if: $a) b: version @skip(if: $b)"
      " ... @include(if: $c) { c: version } ...F @skip(if: $d) e: version @include(if: $e) }"
      " fragment F on Query { d: version }";
  for (int round = 0; round < 2; ++round) {
    for (int mask = 0; mask < 32; ++mask) {
      nlohmann::json variables;
      std::string expected = "{\"data\":{";
      bool first = true;
      for (int bit = 0; bit < 5; ++bit) {
        const bool value = (mask >> bit) & 1;
        const std::string name(1, static_cast<char>('a' + bit));
        variables[name] = value;
        const bool skip_directive = bit == 1 || bit == 3;
        if (value != skip_directive) {
          expected += (first ? "\"" : ",\"") + name + "\":\"v\"";
          first = false;
        }
      }
      expected += "}}";
      Request request;
      request.query = query;
      request.variables = variables.dump();
      request.root_value = Json(R"({"version": "v"})");
      EXPECT_EQ(RunRequest(*engine, request).Body(), expected) << variables.dump();
    }
  }
}

// graphql-js 16 validates such a document and fails it when it executes, with null data.
TEST(ExecutionTest, SchemaWithoutTheOperationsRootType) {
  std::unique_ptr<Engine> engine = MustCreate("type Query { a: Int }");
  ExecutionResult result = RunRequest(*engine, MakeRequest("mutation { a }"));
  EXPECT_TRUE(result.has_data);
  EXPECT_EQ(result.Body(),
            R"({"errors":[{"message":"Schema is not configured to execute mutation operation.",)"
            R"("locations":[{"line":1,"column":1}]}],"data":null})");
}

}  // namespace
}  // namespace netgraph::graphql
