// Validation of an executable document against a schema: every rule of the spec's "Validation"
// section, as graphql-js 16 specifies them (specifiedRules, same order, same messages and
// locations), plus graphql-js's MaxIntrospectionDepthRule and netgraph's protective limits on
// depth and aliases (the cost limit is execution's: core/graphql/execution/operation_cost.h). And
// validation of an SDL document before a schema is built from it (graphql-js's specifiedSDLRules).
// Each rule lives in its own file in this folder, named after its graphql-js rule; the SDL rules
// share the executable rules graphql-js shares.
#ifndef NETGRAPH_CORE_GRAPHQL_VALIDATION_VALIDATE_H_
#define NETGRAPH_CORE_GRAPHQL_VALIDATION_VALIDATE_H_

#include <cstddef>
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
};

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
