// Validation of an SDL document before a schema is built from it: graphql-js's specifiedSDLRules
// as buildASTSchema runs them (no existing schema), with its messages, locations and error order
// (rules interleaved node by node, as graphql-js's parallel visitor reports them):
//   LoneSchemaDefinition, UniqueOperationTypes, UniqueTypeNames, UniqueEnumValueNames,
//   UniqueFieldDefinitionNames, UniqueArgumentDefinitionNames, UniqueDirectiveNames,
//   KnownTypeNames, KnownDirectives, UniqueDirectivesPerLocation, PossibleTypeExtensions,
//   KnownArgumentNamesOnDirectives, UniqueArgumentNames, UniqueInputFieldNames,
//   ProvidedRequiredArgumentsOnDirectives.
#ifndef NETGRAPH_CORE_GRAPHQL_SDL_VALIDATION_H_
#define NETGRAPH_CORE_GRAPHQL_SDL_VALIDATION_H_

#include <vector>

#include "core/graphql/error/error.h"
#include "core/graphql/language/ast.h"

namespace netgraph::graphql {

// Errors of `sdl`, located in it. `builtins` is the parsed BuiltinsSdl(): the specified scalars,
// introspection types and directives every SDL may use without defining them.
std::vector<Error> ValidateSdl(const ast::Document& sdl, const ast::Document& builtins);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_SDL_VALIDATION_H_
