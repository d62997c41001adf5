// Prints a schema as SDL exactly as graphql-js's printSchema does: the schema definition (only
// when it has a description or roots not named Query, Mutation, Subscription), the directives
// the SDL defined, then the types in type map order, without the built-in scalars, directives and
// introspection types. Descriptions print as block strings when they can, default values as
// graphql-js prints them (print(astFromValue())), with @deprecated, @specifiedBy and @oneOf.
#ifndef NETGRAPH_CORE_GRAPHQL_TYPE_SCHEMA_PRINTER_H_
#define NETGRAPH_CORE_GRAPHQL_TYPE_SCHEMA_PRINTER_H_

#include <string>

#include "core/graphql/type/schema.h"

namespace netgraph::graphql {

std::string PrintSchema(const Schema& schema);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_TYPE_SCHEMA_PRINTER_H_
