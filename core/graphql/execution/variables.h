// The coercion of a request's variables (JSON) to the values an operation runs with, as
// graphql-js's getVariableValues does it: defaults for absent variables, required and non-null
// checks, and each input type's rules (Int is 32-bit, ID takes a string or an integer, Float is
// finite, enums by name, input objects with unknown or missing fields, @oneOf, a single value where
// a list is expected). Messages are graphql-js's ("Variable \"$n\" got invalid value 1.5; Int
// cannot represent non-integer value: 1.5"); after 50 errors coercion stops, as graphql-js does.
#ifndef NETGRAPH_CORE_GRAPHQL_EXECUTION_VARIABLES_H_
#define NETGRAPH_CORE_GRAPHQL_EXECUTION_VARIABLES_H_

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <vector>

#include "core/graphql/error/error.h"
#include "core/graphql/language/ast.h"
#include "core/graphql/type/schema.h"
#include "core/graphql/utilities/value.h"

namespace netgraph::graphql {

// Variables may nest lists and objects at most this deep; deeper input is refused before
// coercion walks it.
inline constexpr std::size_t kMaxVariableNesting = 64;

// An Object of the coerced values of `operation`'s variables (absent ones without a default left
// out), or nullopt with `errors` filled. `inputs` is a JSON object, or null for none.
std::optional<Value> CoerceVariableValues(const Schema& schema, const ast::Document& document,
                                          const ast::OperationDefinition& operation,
                                          const nlohmann::json* inputs, std::vector<Error>* errors);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_VARIABLES_H_
