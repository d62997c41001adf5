#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/graphql/execution/prepared_document.h"
#include "test_engine.h"

namespace netgraph::graphql {
namespace {

using test::Json;
using test::MakeRequest;
using test::MustCreate;
using test::Request;
using test::RunRequest;

constexpr std::string_view kSchema = "type Query { a: Int b: [Item] } type Item { x: Int }";

EngineOptions WithCapacity(std::size_t capacity) {
  EngineOptions options;
  options.document_cache_capacity = capacity;
  return options;
}

TEST(DocumentCacheTest, SameTextSameDocument) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  std::shared_ptr<const PreparedDocument> first = engine->Prepare("{ a }");
  EXPECT_TRUE(first->valid());
  EXPECT_EQ(engine->Prepare("{ a }"), first);
  EXPECT_NE(engine->Prepare("{ a  }"), first);  // keyed by the exact text
}

TEST(DocumentCacheTest, KeepsInvalidDocumentsWithTheirErrors) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  std::shared_ptr<const PreparedDocument> syntax = engine->Prepare("{ a");
  ASSERT_FALSE(syntax->valid());
  ASSERT_EQ(syntax->errors().size(), 1u);
  EXPECT_EQ(syntax->errors()[0].message, "Syntax Error: Expected Name, found <EOF>.");
  EXPECT_EQ(engine->Prepare("{ a"), syntax);

  std::shared_ptr<const PreparedDocument> invalid = engine->Prepare("{ c }");
  ASSERT_FALSE(invalid->valid());
  EXPECT_EQ(engine->Prepare("{ c }"), invalid);
  EXPECT_EQ(invalid->OperationTypeFor(std::nullopt), std::nullopt);
}

TEST(DocumentCacheTest, EvictsTheLeastRecentlyUsed) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema, WithCapacity(2));
  std::shared_ptr<const PreparedDocument> a = engine->Prepare("{ a }");
  std::shared_ptr<const PreparedDocument> b = engine->Prepare("{ b { x } }");
  EXPECT_EQ(engine->Prepare("{ a }"), a);  // a is now the most recent
  std::shared_ptr<const PreparedDocument> c = engine->Prepare("{ a b { x } }");
  EXPECT_EQ(engine->Prepare("{ a }"), a);
  EXPECT_EQ(engine->Prepare("{ a b { x } }"), c);
  EXPECT_NE(engine->Prepare("{ b { x } }"), b);  // evicted, prepared again
}

TEST(DocumentCacheTest, BoundsTheTextItKeeps) {
  EngineOptions options;
  options.limits.max_document_bytes = 8 * 1024 * 1024;
  std::unique_ptr<Engine> engine = MustCreate(kSchema, options);
  // Three documents of 7 MiB (mostly white space) do not fit the 16 MiB of text the cache keeps.
  auto large = [](char name) {
    return "{ " + std::string(1, name) + std::string(7 << 20, ' ') + "}";
  };
  std::shared_ptr<const PreparedDocument> first = engine->Prepare(large('a'));
  ASSERT_TRUE(first->valid());
  std::shared_ptr<const PreparedDocument> second = engine->Prepare(large('b'));
  EXPECT_EQ(engine->Prepare(large('a')), first);
  EXPECT_EQ(engine->Prepare(large('b')), second);
  engine->Prepare(large('a'));  // now the most recent: the next one evicts the second
  engine->Prepare(large('c'));
  EXPECT_EQ(engine->Prepare(large('a')), first);
  EXPECT_NE(engine->Prepare(large('b')), second);
}

TEST(DocumentCacheTest, CapacityZeroKeepsNothing) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema, WithCapacity(0));
  std::shared_ptr<const PreparedDocument> first = engine->Prepare("{ a }");
  EXPECT_NE(engine->Prepare("{ a }"), first);
  EXPECT_TRUE(engine->Prepare("{ a }")->valid());
}

TEST(DocumentCacheTest, BindingAResolverStartsAfresh) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  std::shared_ptr<const PreparedDocument> before = engine->Prepare("{ a }");
  EXPECT_EQ(RunRequest(*engine, MakeRequest("{ a }")).body, R"({"data":{"a":null}})");
  ASSERT_TRUE(engine
                  ->BindResolver("Query.a",
                                 [](const ResolveInfo&) -> ResolverResult { return Value::Int(4); })
                  .ok());
  EXPECT_NE(engine->Prepare("{ a }"), before);
  EXPECT_EQ(RunRequest(*engine, MakeRequest("{ a }")).body, R"({"data":{"a":4}})");
}

// A cached document keeps the plans execution built: a second execution collects nothing.
TEST(DocumentCacheTest, KeepsExecutionPlans) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  const std::string query = "query ($s: Boolean!) { a b @skip(if: $s) { x } }";
  auto prepared = std::dynamic_pointer_cast<const PreparedDocumentImpl>(engine->Prepare(query));
  ASSERT_NE(prepared, nullptr);
  const ast::OperationDefinition& operation =
      *prepared->document().definitions()[0]->As<ast::OperationDefinition>();
  EXPECT_EQ(prepared->FindRootPlan(operation, 0), nullptr);

  Request request = MakeRequest(query, R"({"s": false})");
  request.root_value = Json(R"({"a": 1, "b": [{"x": 2}, {"x": 3}]})");
  EXPECT_EQ(RunRequest(*engine, request).body, R"({"data":{"a":1,"b":[{"x":2},{"x":3}]}})");
  const SelectionPlan* plan = prepared->FindRootPlan(operation, 0);  // $s false: state 0
  ASSERT_NE(plan, nullptr);
  ASSERT_EQ(plan->fields.size(), 2u);
  ASSERT_EQ(plan->fields[1].subplans.size(), 1u);  // Item, planned once for both items
  const SelectionPlan* item_plan = plan->fields[1].subplans[0].get();

  EXPECT_EQ(RunRequest(*engine, request).body, R"({"data":{"a":1,"b":[{"x":2},{"x":3}]}})");
  EXPECT_EQ(prepared->FindRootPlan(operation, 0), plan);
  EXPECT_EQ(plan->fields[1].subplans[0].get(), item_plan);

  request.variables = R"({"s": true})";
  EXPECT_EQ(RunRequest(*engine, request).body, R"({"data":{"a":1}})");
  const SelectionPlan* skipping = prepared->FindRootPlan(operation, 1);
  ASSERT_NE(skipping, nullptr);
  EXPECT_EQ(skipping->fields.size(), 1u);
}

}  // namespace
}  // namespace netgraph::graphql
