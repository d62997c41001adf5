// Type system validation of a built schema: graphql-js's validateSchema, with its messages,
// locations and order (root types, then directives, then types in type map order): reserved
// "__" names, fields and values that must exist, output types for fields and input types for
// arguments and input fields, interfaces implemented correctly (fields, argument types, covariant
// field types, transitive interfaces, no cycles), union members that are objects, @oneOf fields,
// non-null input object cycles, required arguments that are deprecated.
#ifndef NETGRAPH_CORE_GRAPHQL_TYPE_SCHEMA_VALIDATION_H_
#define NETGRAPH_CORE_GRAPHQL_TYPE_SCHEMA_VALIDATION_H_

#include <vector>

#include "core/graphql/error/error.h"
#include "core/graphql/language/source_location.h"
#include "core/graphql/type/schema.h"

namespace netgraph::graphql {

// Errors of `schema`, located through `sdl_lines` (the index of the SDL it was built from).
std::vector<Error> ValidateSchema(const Schema& schema, const LineIndex& sdl_lines);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_TYPE_SCHEMA_VALIDATION_H_
