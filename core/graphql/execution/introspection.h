// Introspection as graphql-js 16 answers it: the resolvers of the meta fields __schema and
// __type(name:) and of every field of __Schema, __Type, __Field, __InputValue, __EnumValue and
// __Directive, including the null rules of __Type (fields and interfaces only for objects and
// interfaces, possibleTypes for abstract types, enumValues for enums, inputFields and isOneOf for
// input objects, ofType for wrappers), includeDeprecated filters, and defaultValue printed as a
// GraphQL literal. (__typename needs no resolver: execution writes it directly.)
//
// Schema elements travel between these resolvers as Host values that borrow from the schema; a
// wrapped type such as [Int!]! is represented by a TypeRef interned once per schema, so no
// introspection value owns memory.
#ifndef NETGRAPH_CORE_GRAPHQL_EXECUTION_INTROSPECTION_H_
#define NETGRAPH_CORE_GRAPHQL_EXECUTION_INTROSPECTION_H_

#include "core/graphql/execution/bindings.h"

namespace netgraph::graphql {

// Binds the introspection resolvers into `bindings` (whose schema they read).
void BindIntrospection(Bindings* bindings);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_INTROSPECTION_H_
