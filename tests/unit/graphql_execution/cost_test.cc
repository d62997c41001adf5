// The query cost limit (core/graphql/validation/query_cost_rule.cc): its arithmetic, and that an
// operation over the budget is a request error before any resolver runs, whether its sizes are
// literals or variables.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "test_engine.h"

namespace netgraph::graphql {
namespace {

using test::MakeRequest;
using test::MustCreate;
using test::Request;
using test::RunRequest;
using ::testing::HasSubstr;

constexpr std::string_view kSchema = R"(
  type Query {
    graph(limit: Int = 100): Graph
    items(first: Int): [Item]
    tags: [String]
    one: Item
  }
  type Graph { nodes: [Item] count: Int }
  type Item { id: ID children(first: Int = 3): [Item] }
)";

std::unique_ptr<Engine> EngineWithBudget(std::uint64_t max_cost) {
  EngineOptions options;
  options.limits.max_cost = max_cost;
  return MustCreate(kSchema, options);
}

// The response to `query` from an engine with a budget of 1: the error names the query's cost.
std::string ErrorAtBudget1(const std::string& query, std::string_view variables = "") {
  std::unique_ptr<Engine> engine = EngineWithBudget(1);
  return RunRequest(*engine, MakeRequest(query, std::string(variables))).Body();
}

std::string CostMessage(std::uint64_t cost, std::uint64_t budget) {
  return "Query cost " + std::to_string(cost) + " exceeds the maximum cost of " +
         std::to_string(budget) + ".";
}

TEST(QueryCostTest, CountsEachFieldOnce) {
  EXPECT_THAT(ErrorAtBudget1("{ tags one { id } }"), HasSubstr(CostMessage(3, 1)));
}

TEST(QueryCostTest, SizedFieldsMultiplyWhatTheySelect) {
  // graph: 1 + 10 * (nodes 1 + 1 * id 1, count 1) = 31
  EXPECT_THAT(ErrorAtBudget1("{ graph(limit: 10) { nodes { id } count } }"),
              HasSubstr(CostMessage(31, 1)));
  // The schema's default limit, 100: 1 + 100 * 1.
  EXPECT_THAT(ErrorAtBudget1("{ graph { count } }"), HasSubstr(CostMessage(101, 1)));
  // first without a schema default: kDefaultListSize, 100.
  EXPECT_THAT(ErrorAtBudget1("{ items { id } }"), HasSubstr(CostMessage(101, 1)));
}

TEST(QueryCostTest, NestedSizesMultiply) {
  // items: 1 + 5 * (id 1 + children (1 + 4 * id 1)) = 1 + 5 * 6 = 31
  EXPECT_THAT(ErrorAtBudget1("{ items(first: 5) { id children(first: 4) { id } } }"),
              HasSubstr(CostMessage(31, 1)));
  // children's schema default, 3: 1 + 2 * (1 + 3 * 1) = 9
  EXPECT_THAT(ErrorAtBudget1("{ items(first: 2) { children { id } } }"),
              HasSubstr(CostMessage(9, 1)));
}

TEST(QueryCostTest, FragmentsCountWhereSpread) {
  // Two spreads of a fragment costing 1 + 10 * 1, plus an inline fragment of 1.
  EXPECT_THAT(
      ErrorAtBudget1("{ a: graph(limit: 10) { ...F } b: graph(limit: 10) { ...F } ... on Query "
                     "{ tags } } fragment F on Graph { count }"),
      HasSubstr(CostMessage(23, 1)));
}

TEST(QueryCostTest, HugeSizesSaturate) {
  EXPECT_THAT(ErrorAtBudget1("{ items(first: 99999999999999999999999) { children(first: "
                             "2000000000) { children(first: 2000000000) { id } } } }"),
              HasSubstr(CostMessage(UINT64_MAX, 1)));
}

TEST(QueryCostTest, OverTheBudgetIsARequestErrorWithItsCode) {
  std::unique_ptr<Engine> engine = EngineWithBudget(1000);
  int calls = 0;
  ASSERT_TRUE(engine
                  ->BindResolver("Query.graph",
                                 [&calls](const ResolveInfo&) -> ResolverResult {
                                   ++calls;
                                   return Value();
                                 })
                  .ok());
  std::string aliased = "{";
  for (int i = 0; i < 30; ++i) {
    aliased += " g" + std::to_string(i) + ": graph(limit: 1000) { count }";
  }
  aliased += " }";
  ExecutionResult result = RunRequest(*engine, MakeRequest(aliased));
  EXPECT_FALSE(result.has_data);
  EXPECT_EQ(result.Body(), "{\"errors\":[{\"message\":\"" + CostMessage(30 * 1001, 1000) +
                               "\",\"locations\":[{\"line\":1,\"column\":1}],"
                               "\"extensions\":{\"code\":\"COST_LIMIT_EXCEEDED\"}}]}");
  EXPECT_EQ(calls, 0);

  // Within the budget it runs.
  result = RunRequest(*engine, MakeRequest("{ graph(limit: 999) { count } }"));
  EXPECT_TRUE(result.has_data);
  EXPECT_EQ(calls, 1);
}

TEST(QueryCostTest, VariableSizesAreCheckedWithTheirValues) {
  std::unique_ptr<Engine> engine = EngineWithBudget(1000);
  int calls = 0;
  ASSERT_TRUE(engine
                  ->BindResolver("Query.graph",
                                 [&calls](const ResolveInfo&) -> ResolverResult {
                                   ++calls;
                                   return Value();
                                 })
                  .ok());
  const std::string query = "query ($n: Int = 5) { graph(limit: $n) { count } }";
  EXPECT_TRUE(engine->Prepare(query)->valid());  // the default, 5, fits
  ExecutionResult result = RunRequest(*engine, MakeRequest(query, R"({"n": 100000})"));
  EXPECT_FALSE(result.has_data);
  EXPECT_THAT(result.Body(), HasSubstr(CostMessage(100001, 1000)));
  EXPECT_THAT(result.Body(), HasSubstr("COST_LIMIT_EXCEEDED"));
  EXPECT_EQ(calls, 0);

  result = RunRequest(*engine, MakeRequest(query, R"({"n": 10})"));
  EXPECT_TRUE(result.has_data);
  EXPECT_EQ(calls, 1);
  // A variable default over the budget is refused in validation already.
  EXPECT_FALSE(engine->Prepare("query ($n: Int = 100000) { graph(limit: $n) { count } }")->valid());
}

TEST(QueryCostTest, ZeroDisablesTheLimit) {
  std::unique_ptr<Engine> engine = EngineWithBudget(0);
  EXPECT_TRUE(engine->Prepare("{ items(first: 2000000000) { children(first: 2000000000) { id } } }")
                  ->valid());
}

// The default budget admits what the service's clients ask for: the whole graph at its largest.
TEST(QueryCostTest, TheServiceGraphAtItsLargestFitsTheDefault) {
  std::unique_ptr<Engine> engine = MustCreate(test::ReadSourceFile("core/api/schema.graphql"));
  const std::string graph =
      "query ($limit: Int) { networkGraph(limit: $limit) { nodes { id type labels } "
      "links { source target type } metadata { nodeCount linkCount lastUpdated } } }";
  ASSERT_TRUE(engine->Prepare(graph)->valid());
  ExecutionResult result = RunRequest(*engine, MakeRequest(graph, R"({"limit": 1000})"));
  EXPECT_THAT(result.Body(), ::testing::Not(HasSubstr("COST_LIMIT_EXCEEDED")));
  EXPECT_THAT(RunRequest(*engine, MakeRequest(graph, R"({"limit": 4000})")).Body(),
              HasSubstr(CostMessage(48001, 20000)));
}

}  // namespace
}  // namespace netgraph::graphql
