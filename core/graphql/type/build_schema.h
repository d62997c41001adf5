// Builds a Schema from SDL, as graphql-js's buildSchema followed by validateSchema:
//  1. parse (syntax errors);
//  2. SDL validation (validation/validate.h: unknown types and directives, duplicate names, bad
//     extensions...);
//  3. construction: types from definitions and their extensions, the built-in scalars,
//     directives and introspection types, default values coerced, @deprecated, @specifiedBy and
//     @oneOf applied, root types from `schema { }` or the names Query, Mutation, Subscription;
//  4. type system validation (schema_validation.h).
// The first step that finds errors stops the build; its errors are returned, each with the
// locations graphql-js gives (in the SDL; none for errors about missing things, such as "Query
// root type must be provided.").
#ifndef NETGRAPH_CORE_GRAPHQL_TYPE_BUILD_SCHEMA_H_
#define NETGRAPH_CORE_GRAPHQL_TYPE_BUILD_SCHEMA_H_

#include <memory>
#include <string>
#include <vector>

#include "core/graphql/error/error.h"
#include "core/graphql/type/schema.h"

namespace netgraph::graphql {

// The schema `sdl` defines, or nullptr with `errors` filled in.
std::unique_ptr<const Schema> BuildSchema(std::string sdl, std::vector<Error>* errors);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_TYPE_BUILD_SCHEMA_H_
