// The query cost limit (core/graphql/execution/operation_cost.h): its arithmetic, that it charges
// what execution runs (a response key once however often it is selected, only the selected
// operation), and that an operation over the budget is a request error before any resolver runs,
// whether its sizes are literals or variables.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "tests/unit/graphql/test_engine.h"

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
    thing: Thing
  }
  union Thing = Item | Graph
  type Graph { nodes: [Item] count: Int }
  type Item { id: ID children(first: Int = 3): [Item] }
)";

std::unique_ptr<Engine> EngineWithBudget(std::uint64_t max_cost) {
  EngineOptions options;
  options.limits.max_cost = max_cost;
  return MustCreate(kSchema, options);
}

// An engine with a budget of 1000 whose Query.graph resolver counts its calls in `calls`.
std::unique_ptr<Engine> EngineCountingGraphCalls(int* calls) {
  std::unique_ptr<Engine> engine = EngineWithBudget(1000);
  EXPECT_TRUE(engine
                  ->BindResolver("Query.graph",
                                 [calls](const ResolveInfo&) -> ResolverResult {
                                   ++*calls;
                                   return Value();
                                 })
                  .ok());
  return engine;
}

// The service's schema with a budget of `max_cost`.
std::unique_ptr<Engine> EngineWithBudgetOn(std::uint64_t max_cost) {
  EngineOptions options;
  options.limits.max_cost = max_cost;
  return MustCreate(test::ReadSourceFile("core/api/schema.graphql"), options);
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

TEST(QueryCostTest, AResponseKeySelectedSeveralTimesCountsOnce) {
  // Execution merges the fields of one response key: graph 1 + 10 * count 1 = 11, however often
  // count is selected, directly or through fragments.
  EXPECT_THAT(ErrorAtBudget1("{ graph(limit: 10) { count count ...F ... on Graph { count } } } "
                             "fragment F on Graph { count }"),
              HasSubstr(CostMessage(11, 1)));
  // Their sub-selections merge too: nodes { id children } once, 1 + 10 * (1 + (1 + 1 + 3 * 1)).
  EXPECT_THAT(ErrorAtBudget1("{ graph(limit: 10) { ...A ...B nodes { id } } } "
                             "fragment A on Graph { nodes { id children { id } } } "
                             "fragment B on Graph { nodes { children { id } } }"),
              HasSubstr(CostMessage(61, 1)));
  // A fragment spread twice in one selection set is collected once.
  EXPECT_THAT(ErrorAtBudget1("{ graph(limit: 10) { ...F ...F } } fragment F on Graph { count }"),
              HasSubstr(CostMessage(11, 1)));
}

TEST(QueryCostTest, FragmentsThatCannotApplyCountNothing) {
  // An Item is a Thing but never a Graph: one costs 1 + id 1.
  EXPECT_THAT(ErrorAtBudget1("{ one { id ... on Thing { ... on Graph { nodes { id } } } } }"),
              HasSubstr(CostMessage(2, 1)));
}

TEST(QueryCostTest, AnAbstractTypeCountsItsMostExpensiveObjectType) {
  // thing: 1 + max(Item: id 1 + children 1 + 5 * 1, Graph: count 1) = 8.
  EXPECT_THAT(ErrorAtBudget1("{ thing { ... on Item { id children(first: 5) { id } } "
                             "... on Graph { count } } }"),
              HasSubstr(CostMessage(8, 1)));
}

TEST(QueryCostTest, OnlyTheSelectedOperationIsCharged) {
  std::unique_ptr<Engine> engine = EngineWithBudget(1000);
  const std::string document = "query Light { tags } query Heavy { items(first: 100000) { id } }";
  Request request = MakeRequest(document);
  request.operation_name = "Light";
  ExecutionResult light = RunRequest(*engine, request);
  EXPECT_TRUE(light.has_data) << light.Body();
  request.operation_name = "Heavy";
  ExecutionResult heavy = RunRequest(*engine, request);
  EXPECT_FALSE(heavy.has_data);
  EXPECT_THAT(heavy.Body(), HasSubstr(CostMessage(100001, 1000)));
}

TEST(QueryCostTest, HugeSizesSaturate) {
  EXPECT_THAT(ErrorAtBudget1("{ items(first: 2000000000) { children(first: 2000000000) { "
                             "children(first: 2000000000) { id } } } }"),
              HasSubstr(CostMessage(UINT64_MAX, 1)));
}

TEST(QueryCostTest, OverTheBudgetIsARequestErrorWithItsCode) {
  int calls = 0;
  std::unique_ptr<Engine> engine = EngineCountingGraphCalls(&calls);
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
  int calls = 0;
  std::unique_ptr<Engine> engine = EngineCountingGraphCalls(&calls);
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
  // A variable's default counts when the request gives no value.
  result =
      RunRequest(*engine, MakeRequest("query ($n: Int = 100000) { graph(limit: $n) { count } }"));
  EXPECT_THAT(result.Body(), HasSubstr(CostMessage(100001, 1000)));
  EXPECT_EQ(calls, 1);
}

TEST(QueryCostTest, ZeroDisablesTheLimit) {
  std::unique_ptr<Engine> engine = EngineWithBudget(0);
  ExecutionResult result = RunRequest(
      *engine, MakeRequest("{ items(first: 2000000000) { children(first: 2000000000) { id } } }"));
  EXPECT_TRUE(result.has_data) << result.Body();
}

// Fragments spread in fragments spread in fragments, each twice under aliases: merging reads each
// (type, selections) once, so a doubling chain is costed without reading its 2^40 expansion. (The
// service's depth and alias limits refuse such a document anyway; here they are lifted.)
TEST(QueryCostTest, NestedDoublingFragmentsAreCostedQuickly) {
  EngineOptions options;
  options.limits.max_cost = 1;
  options.limits.max_depth = 100;
  options.limits.max_aliases = std::size_t{1} << 50;
  std::unique_ptr<Engine> engine = MustCreate(kSchema, options);
  std::string document = "{ items(first: 1) { ...F0 } }";
  constexpr int kLevels = 40;
  for (int level = 0; level < kLevels; ++level) {
    const std::string next = level + 1 < kLevels ? "...F" + std::to_string(level + 1) : "id";
    document += " fragment F" + std::to_string(level) + " on Item { a: children(first: 1) { " +
                next + " } b: children(first: 1) { " + next + " } }";
  }
  // Each level doubles: 2 * (1 + below); the innermost selects id.
  std::uint64_t below = 1;
  for (int level = 0; level < kLevels; ++level) below = 2 * (1 + below);
  EXPECT_THAT(RunRequest(*engine, MakeRequest(document)).Body(),
              HasSubstr(CostMessage(1 + below, 1)));
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

// The same query as Apollo Client sends it (__typename added to every selection set) with a
// colocated fragment repeating part of it, and as Relay's compiler writes it (a fragment per
// component, spread beside each other): merged as execution merges them, both cost what the plain
// query costs plus __typename, well within the default budget. Counted spread by spread, the Apollo
// document cost 25001 and was refused.
TEST(QueryCostTest, ApolloAndRelayShapedDocumentsCostWhatTheyExecute) {
  std::unique_ptr<Engine> engine = MustCreate(test::ReadSourceFile("core/api/schema.graphql"));
  const std::string apollo =
      "query Graph($limit: Int) { networkGraph(limit: $limit) { "
      "nodes { id type labels __typename } links { source target type __typename } "
      "metadata { nodeCount linkCount lastUpdated __typename } __typename ...GraphStats } } "
      "fragment GraphStats on NetworkGraph { metadata { nodeCount linkCount lastUpdated "
      "__typename } nodes { id __typename } __typename }";
  ExecutionResult result = RunRequest(*engine, MakeRequest(apollo, R"({"limit": 1000})"));
  EXPECT_THAT(result.Body(), ::testing::Not(HasSubstr("COST_LIMIT_EXCEEDED")));
  // 1 + 1000 * (nodes 5 + links 5 + metadata 5 + __typename 1): still counted, at 4000.
  EXPECT_THAT(RunRequest(*engine, MakeRequest(apollo, R"({"limit": 4000})")).Body(),
              HasSubstr(CostMessage(64001, 20000)));

  const std::string relay =
      "query GraphPageQuery { networkGraph(limit: 1000) { ...GraphView_graph ...GraphStats_graph "
      "} } fragment GraphView_graph on NetworkGraph { nodes { id ...NodeLabel_node } "
      "links { ...LinkView_link } } fragment NodeLabel_node on Node { id type labels } "
      "fragment LinkView_link on Link { source target type } "
      "fragment GraphStats_graph on NetworkGraph { metadata { nodeCount linkCount lastUpdated } "
      "nodes { id } links { source } }";
  result = RunRequest(*engine, MakeRequest(relay));
  EXPECT_THAT(result.Body(), ::testing::Not(HasSubstr("COST_LIMIT_EXCEEDED")));
  EXPECT_THAT(RunRequest(*EngineWithBudgetOn(12000), MakeRequest(relay)).Body(),
              HasSubstr(CostMessage(12001, 12000)));
}

}  // namespace
}  // namespace netgraph::graphql
