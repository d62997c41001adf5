// The places a directive may be used (graphql-js's DirectiveLocation, September 2025 edition:
// nineteen locations).
#ifndef NETGRAPH_CORE_GRAPHQL_DIRECTIVE_LOCATION_H_
#define NETGRAPH_CORE_GRAPHQL_DIRECTIVE_LOCATION_H_

#include <cstdint>
#include <optional>
#include <string_view>

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

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_DIRECTIVE_LOCATION_H_
