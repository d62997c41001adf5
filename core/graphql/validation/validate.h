// Validation of an executable document against a schema: every rule of the spec's "Validation"
// section, as graphql-js 16 specifies them (specifiedRules, same order, same messages and
// locations), plus graphql-js's MaxIntrospectionDepthRule and netgraph's protective limits on
// depth, aliases and cost. And validation of an SDL document before a schema is built from it
// (graphql-js's specifiedSDLRules). Each rule lives in its own file in this folder, named after
// its graphql-js rule; the SDL rules share the executable rules graphql-js shares.
#ifndef NETGRAPH_CORE_GRAPHQL_VALIDATION_VALIDATE_H_
#define NETGRAPH_CORE_GRAPHQL_VALIDATION_VALIDATE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/graphql/error/error.h"
#include "core/graphql/language/ast.h"
#include "core/graphql/type/schema.h"

namespace netgraph::graphql {

struct ValidationOptions {
  // Validation stops after this many errors with a final "Too many validation errors, error limit
  // reached. Validation aborted." (graphql-js's maxErrors).
  std::size_t max_errors = 100;
  // MaxIntrospectionDepthRule: nesting of fields/interfaces/possibleTypes/inputFields under
  // __schema or __type.
  std::size_t max_introspection_depth = 3;
  // netgraph's limits (not graphql-js rules), per operation; nullopt disables them. Both measure
  // the operation as it executes: a fragment counts wherever it is spread.
  std::optional<std::size_t> max_depth;    // field nesting; introspection ("__") fields not counted
  std::optional<std::size_t> max_aliases;  // aliased fields
  // The query cost limit (query_cost_rule.cc says how a cost is counted); nullopt disables it.
  // Validation does not know the variables: a size given by a variable counts as the variable's
  // default, and execution checks OperationCost again with the variables' values.
  std::optional<std::uint64_t> max_cost;
};

// The size a `limit`/`first` argument counts as when neither the request nor the schema gives one.
inline constexpr std::uint64_t kDefaultListSize = 100;
// extensions.code of the error a cost over the limit gets.
inline constexpr std::string_view kCostLimitCode = "COST_LIMIT_EXCEEDED";

// The fragment definition of a name in the document, or nullptr.
using FragmentLookup = std::function<const ast::FragmentDefinition*(std::string_view)>;

// The cost of `operation` as query_cost_rule.cc counts it, saturating; `variables` (the coerced
// variable values) may be null, as in validation.
std::uint64_t OperationCost(const Schema& schema, const FragmentLookup& fragment,
                            const ast::OperationDefinition& operation, const Value* variables);
// The error message of a cost over the limit: it names both.
std::string CostLimitMessage(std::uint64_t cost, std::uint64_t budget);

// The errors, in the order graphql-js reports them; empty when the document is valid. Where
// graphql-js's validate() throws instead (a subscription whose root @skip or @include cannot be
// evaluated without variables), the error it throws is the only one.
std::vector<Error> Validate(const Schema& schema, const ast::Document& document,
                            const ValidationOptions& options);

// The errors of `sdl` as graphql-js's buildASTSchema reports them (specifiedSDLRules, no existing
// schema, no error limit), in its order: rules interleaved node by node. `builtins` is the parsed
// BuiltinsSdl(): its directives are those every SDL may use without defining them.
std::vector<Error> ValidateSdl(const ast::Document& sdl, const ast::Document& builtins);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_VALIDATION_VALIDATE_H_
