#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/graphql/execution/prepared_document.h"
#include "tests/unit/graphql/test_engine.h"

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

// Describe names every root field the operation may select, fragments included: the pool decides
// from it whether an answer comes from the read cache alone (fcgi/http/graphql_http.cc).
TEST(DocumentSummaryTest, NamesTheRootFieldsOfInlineAndNamedFragments) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  std::shared_ptr<const PreparedDocument> document = engine->Prepare(
      "query Q { x: a ... on Query { b { x } } ...F ...F } "
      "fragment F on Query { ...G } fragment G on Query { __typename }");
  ASSERT_TRUE(document->valid());
  std::optional<OperationSummary> summary = document->Describe(std::nullopt);
  ASSERT_TRUE(summary.has_value());
  EXPECT_EQ(summary->name, "Q");
  EXPECT_EQ(summary->root_fields, (std::vector<std::string_view>{"a", "b", "__typename"}));
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
  options.document_cache_bytes = 16 * 1024 * 1024;
  std::unique_ptr<Engine> engine = MustCreate(kSchema, options);
  // Three documents of 7 MiB (mostly white space) do not fit in 16 MiB.
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

// A dense document: `fields` selections of x under b, made distinct by `tag`.
std::string Dense(int tag, int fields) {
  std::string query = "{ a" + std::to_string(tag) + ": a b {";
  for (int i = 0; i < fields; ++i) query += " x";
  return query + " } }";
}

std::size_t HeldBytes(const std::shared_ptr<const PreparedDocument>& document) {
  return std::dynamic_pointer_cast<const PreparedDocumentImpl>(document)->held_bytes();
}

// The bound counts what a document holds (its AST above all), not its text: issue 9, defect 3.
TEST(DocumentCacheTest, BoundsTheBytesItsDocumentsHold) {
  const std::size_t held = HeldBytes(MustCreate(kSchema)->Prepare(Dense(0, 4000)));
  EXPECT_GT(held, 10 * Dense(0, 4000).size());  // the AST is many times the text

  EngineOptions options;
  options.document_cache_bytes = held * 7 / 2;  // room for three documents, not four
  std::unique_ptr<Engine> engine = MustCreate(kSchema, options);
  std::vector<std::shared_ptr<const PreparedDocument>> documents;
  for (int tag = 0; tag < 4; ++tag) {
    documents.push_back(engine->Prepare(Dense(tag, 4000)));
    ASSERT_TRUE(documents.back()->valid());
    ASSERT_EQ(HeldBytes(documents.back()), held);
  }
  for (int tag = 3; tag >= 1; --tag) EXPECT_EQ(engine->Prepare(Dense(tag, 4000)), documents[tag]);
  EXPECT_NE(engine->Prepare(Dense(0, 4000)), documents[0]);  // evicted for the fourth

  // A document larger than the whole bound is not kept.
  options.document_cache_bytes = held - 1;
  engine = MustCreate(kSchema, options);
  std::shared_ptr<const PreparedDocument> too_large = engine->Prepare(Dense(0, 4000));
  EXPECT_NE(engine->Prepare(Dense(0, 4000)), too_large);
}

// An invalid document is kept as its text and errors: no AST.
TEST(DocumentCacheTest, KeepsInvalidDocumentsWithoutTheirAst) {
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  std::string invalid = "{ c b {";
  for (int i = 0; i < 4000; ++i) invalid += " x";
  invalid += " } }";
  std::shared_ptr<const PreparedDocument> document = engine->Prepare(invalid);
  ASSERT_FALSE(document->valid());
  ASSERT_EQ(document->errors().size(), 1u);
  EXPECT_EQ(document->errors()[0].message,
            "Cannot query field \"c\" on type \"Query\". Did you mean \"a\" or \"b\"?");
  EXPECT_LT(HeldBytes(document), 2 * invalid.size());
  EXPECT_EQ(engine->Prepare(invalid), document);
}

// The plans executions keep for a cached document count too: they can push it out.
TEST(DocumentCacheTest, CountsThePlansExecutionsKeep) {
  const std::string query = Dense(0, 2000);
  std::unique_ptr<Engine> engine = MustCreate(kSchema);
  std::shared_ptr<const PreparedDocument> prepared = engine->Prepare(query);
  const std::size_t before = HeldBytes(prepared);
  Request request = MakeRequest(query);
  request.root_value = Json(R"({"a": 1, "b": [{"x": 2}]})");
  EXPECT_EQ(RunRequest(*engine, request).Body(), R"({"data":{"a0":1,"b":[{"x":2}]}})");
  const std::size_t after = HeldBytes(prepared);
  EXPECT_GT(after, before);

  EngineOptions options;
  options.document_cache_bytes = (before + after) / 2;  // the document fits until it is executed
  engine = MustCreate(kSchema, options);
  prepared = engine->Prepare(query);
  EXPECT_EQ(engine->Prepare(query), prepared);
  RunRequest(*engine, request);
  EXPECT_NE(engine->Prepare(query), prepared);
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
  EXPECT_EQ(RunRequest(*engine, MakeRequest("{ a }")).Body(), R"({"data":{"a":null}})");
  ASSERT_TRUE(engine
                  ->BindResolver("Query.a",
                                 [](const ResolveInfo&) -> ResolverResult { return Value::Int(4); })
                  .ok());
  EXPECT_NE(engine->Prepare("{ a }"), before);
  EXPECT_EQ(RunRequest(*engine, MakeRequest("{ a }")).Body(), R"({"data":{"a":4}})");
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
  EXPECT_EQ(RunRequest(*engine, request).Body(), R"({"data":{"a":1,"b":[{"x":2},{"x":3}]}})");
  const SelectionPlan* plan = prepared->FindRootPlan(operation, 0);  // $s false: state 0
  ASSERT_NE(plan, nullptr);
  ASSERT_EQ(plan->fields.size(), 2u);
  ASSERT_EQ(plan->fields[1].subplans.size(), 1u);  // Item, planned once for both items
  const SelectionPlan* item_plan = plan->fields[1].subplans[0].get();

  EXPECT_EQ(RunRequest(*engine, request).Body(), R"({"data":{"a":1,"b":[{"x":2},{"x":3}]}})");
  EXPECT_EQ(prepared->FindRootPlan(operation, 0), plan);
  EXPECT_EQ(plan->fields[1].subplans[0].get(), item_plan);

  request.variables = R"({"s": true})";
  EXPECT_EQ(RunRequest(*engine, request).Body(), R"({"data":{"a":1}})");
  const SelectionPlan* skipping = prepared->FindRootPlan(operation, 1);
  ASSERT_NE(skipping, nullptr);
  EXPECT_EQ(skipping->fields.size(), 1u);
}

}  // namespace
}  // namespace netgraph::graphql
