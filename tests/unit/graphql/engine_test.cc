// The protective limits of Engine::Prepare. Each breach is a request error that names the limit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/unit/graphql/test_engine.h"

namespace netgraph::graphql {
namespace {

using test::MustCreate;
using ::testing::HasSubstr;

constexpr std::string_view kSchema = R"(
  type Query { node: Node a: Int }
  type Node { child: Node name: String }
)";

// The only error of `query` prepared by an engine with `limits`.
std::string LimitError(const Limits& limits, const std::string& query) {
  EngineOptions options;
  options.limits = limits;
  std::unique_ptr<Engine> engine = MustCreate(kSchema, options);
  std::shared_ptr<const PreparedDocument> document = engine->Prepare(query);
  EXPECT_FALSE(document->valid()) << query;
  if (document->errors().size() != 1) return "errors: " + std::to_string(document->errors().size());
  ExecutionResult result = engine->Execute(*document, ExecuteParams{});
  EXPECT_FALSE(result.has_data);
  return document->errors()[0].message;
}

// A query whose fields nest `depth` deep: { node { child { ... { name } } } }.
std::string Nested(int depth) {
  std::string query = "{ node {";
  for (int i = 2; i < depth; ++i) query += " child {";
  query += " name";
  for (int i = 1; i < depth; ++i) query += " }";
  return query + " }";
}

TEST(LimitsTest, DocumentBytesBeforeParsing) {
  Limits limits;
  limits.max_document_bytes = 64;
  const std::string query = "{ a " + std::string(100, ' ') + "}";
  EXPECT_EQ(LimitError(limits, query),
            "Document exceeds the maximum size of 64 bytes (max_document_bytes).");
  // Exactly at the limit is fine.
  EngineOptions options;
  options.limits = limits;
  std::unique_ptr<Engine> engine = MustCreate(kSchema, options);
  EXPECT_TRUE(engine->Prepare("{ a" + std::string(60, ' ') + "}")->valid());
}

TEST(LimitsTest, Tokens) {
  Limits limits;
  limits.max_tokens = 10;
  EXPECT_EQ(LimitError(limits, "{ a a a a a a a a a a a }"),
            "Syntax Error: Document contains more than 10 tokens. Parsing aborted.");
}

TEST(LimitsTest, Depth) {
  Limits limits;
  limits.max_depth = 3;
  EngineOptions options;
  options.limits = limits;
  EXPECT_TRUE(MustCreate(kSchema, options)->Prepare(Nested(3))->valid());
  const std::string message = LimitError(limits, Nested(4));
  EXPECT_THAT(message, HasSubstr("depth"));
  EXPECT_THAT(message, HasSubstr("3"));
}

TEST(LimitsTest, Aliases) {
  Limits limits;
  limits.max_aliases = 2;
  const std::string message = LimitError(limits, "{ x: a y: a z: a }");
  EXPECT_THAT(message, HasSubstr("aliases"));
  EXPECT_THAT(message, HasSubstr("2"));
}

TEST(LimitsTest, IntrospectionDepth) {
  Limits limits;
  EXPECT_EQ(LimitError(limits,
                       "{ __schema { types { fields { type { fields { type { fields "
                       "{ name } } } } } } } }"),
            "Maximum introspection depth exceeded");
}

}  // namespace
}  // namespace netgraph::graphql
