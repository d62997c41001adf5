#include "core/graphql/directive_location.h"

#include <array>

namespace netgraph::graphql {

namespace {

// In the order of the enum.
constexpr std::array<std::string_view, 19> kNames = {
    "QUERY",
    "MUTATION",
    "SUBSCRIPTION",
    "FIELD",
    "FRAGMENT_DEFINITION",
    "FRAGMENT_SPREAD",
    "INLINE_FRAGMENT",
    "VARIABLE_DEFINITION",
    "SCHEMA",
    "SCALAR",
    "OBJECT",
    "FIELD_DEFINITION",
    "ARGUMENT_DEFINITION",
    "INTERFACE",
    "UNION",
    "ENUM",
    "ENUM_VALUE",
    "INPUT_OBJECT",
    "INPUT_FIELD_DEFINITION",
};

}  // namespace

std::string_view DirectiveLocationName(DirectiveLocation location) {
  return kNames[static_cast<std::size_t>(location)];
}

std::optional<DirectiveLocation> DirectiveLocationFromName(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<DirectiveLocation>(i);
  }
  return std::nullopt;
}

}  // namespace netgraph::graphql
