// The places a directive may be used (graphql-js's DirectiveLocation, September 2025 edition:
// nineteen locations).
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_DIRECTIVE_LOCATION_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_DIRECTIVE_LOCATION_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/graphql/language/ast.h"

namespace netgraph::graphql {

enum class DirectiveLocation : std::uint8_t {
  // Executable locations.
  kQuery,
  kMutation,
  kSubscription,
  kField,
  kFragmentDefinition,
  kFragmentSpread,
  kInlineFragment,
  kVariableDefinition,
  // Type system locations.
  kSchema,
  kScalar,
  kObject,
  kFieldDefinition,
  kArgumentDefinition,
  kInterface,
  kUnion,
  kEnum,
  kEnumValue,
  kInputObject,
  kInputFieldDefinition,
};

// "QUERY", "FIELD", "INPUT_FIELD_DEFINITION"...
std::string_view DirectiveLocationName(DirectiveLocation location);
// The location a name denotes, or nullopt for a name that is none.
std::optional<DirectiveLocation> DirectiveLocationFromName(std::string_view name);

// Where a directive stands (graphql-js's getDirectiveLocationForASTPath), given the nodes that
// enclose it, outermost first: the last is the node it applies to. nullopt for a node that takes
// no directives. An input value definition is an INPUT_FIELD_DEFINITION inside an input object
// definition (not an extension, as in graphql-js), an ARGUMENT_DEFINITION elsewhere.
std::optional<DirectiveLocation> DirectiveLocationAt(const std::vector<const ast::Node*>& path);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_DIRECTIVE_LOCATION_H_
