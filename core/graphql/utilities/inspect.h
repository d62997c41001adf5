// graphql-js's inspect(): how error messages show a value ("Int cannot represent non-integer
// value: \"abc\"", "Variable \"$f\" got invalid value { a: 1 }"). Strings are JSON-quoted, numbers
// written as JavaScript writes them, lists show at most 10 items, and lists and objects nested
// deeper than two levels show as [Array] and [Object].
#ifndef NETGRAPH_CORE_GRAPHQL_UTILITIES_INSPECT_H_
#define NETGRAPH_CORE_GRAPHQL_UTILITIES_INSPECT_H_

#include <string>

#include "core/graphql/utilities/value.h"

namespace netgraph::graphql {

std::string Inspect(const Value& value);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_UTILITIES_INSPECT_H_
