// netgraph's query cost limit (EngineOptions::Limits::max_cost), not a graphql-js rule: an estimate
// of the work the operation that is about to run asks for, checked before any resolver runs
// (issue 9, defect 4: 30 aliased networkGraph(limit: 1000) in one small request).
//
// The cost follows execution. Fields are gathered as the spec's CollectFields gathers them: by
// response key, through inline fragments and fragment spreads whose type condition applies, each
// fragment once per selection set however often it is spread there; a response key selected
// several times is one field, its sub-selections merged (issue 25: Apollo's and Relay's colocated
// fragments select the same fields from several places). On an abstract type the most expensive of
// its possible object types counts. @skip and @include are not evaluated: a field counts as if
// included. Only the operation selected by operationName is charged, never its neighbours in the
// document.
//
// Every response key costs 1. A field with a `limit` or `first` argument asks its resolver for that
// many items, so what it selects costs that many times over; such fields nested in one another
// multiply. Lists without such an argument are bounded by the sized field above them
// (networkGraph's nodes and links by its limit) or by the data itself, and count once. The size is
// the argument's literal, or its variable's coerced value; absent or null, the argument's default
// in the schema, else kDefaultListSize. Sums and products saturate at UINT64_MAX.
#ifndef NETGRAPH_CORE_GRAPHQL_EXECUTION_OPERATION_COST_H_
#define NETGRAPH_CORE_GRAPHQL_EXECUTION_OPERATION_COST_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/graphql/execution/selection_plan.h"
#include "core/graphql/language/ast.h"
#include "core/graphql/type/schema.h"
#include "core/graphql/utilities/value.h"

namespace netgraph::graphql {

// The size a `limit`/`first` argument counts as when neither the request nor the schema gives one.
inline constexpr std::uint64_t kDefaultListSize = 100;
// extensions.code of the request error a cost over the limit gets.
inline constexpr std::string_view kCostLimitCode = "COST_LIMIT_EXCEEDED";
// Merging fragments re-reads them wherever they are spread. A document that needs more than this
// many selections read to be costed is charged UINT64_MAX: no document within the token, depth and
// alias limits comes near it (the service's largest queries read a few dozen).
inline constexpr std::uint64_t kMaxSelectionsCosted = 1'000'000;

struct OperationCost {
  std::uint64_t cost = 0;
  // Whether a size came from a variable: when not, every request of the operation costs the same.
  bool sized_by_variables = false;
};

// The cost of `operation` of a valid document whose fragments are `fragments`; `variables` are the
// operation's coerced variable values (an object).
OperationCost CostOf(const Schema& schema, const FragmentMap& fragments,
                     const ast::OperationDefinition& operation, const Value& variables);

// The error message of a cost over the limit: it names both.
std::string CostLimitMessage(std::uint64_t cost, std::uint64_t budget);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_OPERATION_COST_H_
