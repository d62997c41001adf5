#include "core/graphql/language/directive_location.h"

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

std::optional<DirectiveLocation> DirectiveLocationAt(const std::vector<const ast::Node*>& path) {
  using ast::NodeKind;
  const ast::Node& node = *path.back();
  switch (node.kind) {
    case NodeKind::kOperationDefinition:
      switch (static_cast<const ast::OperationDefinition&>(node).operation) {
        case OperationType::kQuery:
          return DirectiveLocation::kQuery;
        case OperationType::kMutation:
          return DirectiveLocation::kMutation;
        case OperationType::kSubscription:
          return DirectiveLocation::kSubscription;
      }
      break;
    case NodeKind::kField:
      return DirectiveLocation::kField;
    case NodeKind::kFragmentSpread:
      return DirectiveLocation::kFragmentSpread;
    case NodeKind::kInlineFragment:
      return DirectiveLocation::kInlineFragment;
    case NodeKind::kFragmentDefinition:
      return DirectiveLocation::kFragmentDefinition;
    case NodeKind::kVariableDefinition:
      return DirectiveLocation::kVariableDefinition;
    case NodeKind::kSchemaDefinition:
    case NodeKind::kSchemaExtension:
      return DirectiveLocation::kSchema;
    case NodeKind::kScalarTypeDefinition:
    case NodeKind::kScalarTypeExtension:
      return DirectiveLocation::kScalar;
    case NodeKind::kObjectTypeDefinition:
    case NodeKind::kObjectTypeExtension:
      return DirectiveLocation::kObject;
    case NodeKind::kFieldDefinition:
      return DirectiveLocation::kFieldDefinition;
    case NodeKind::kInterfaceTypeDefinition:
    case NodeKind::kInterfaceTypeExtension:
      return DirectiveLocation::kInterface;
    case NodeKind::kUnionTypeDefinition:
    case NodeKind::kUnionTypeExtension:
      return DirectiveLocation::kUnion;
    case NodeKind::kEnumTypeDefinition:
    case NodeKind::kEnumTypeExtension:
      return DirectiveLocation::kEnum;
    case NodeKind::kEnumValueDefinition:
      return DirectiveLocation::kEnumValue;
    case NodeKind::kInputObjectTypeDefinition:
    case NodeKind::kInputObjectTypeExtension:
      return DirectiveLocation::kInputObject;
    case NodeKind::kInputValueDefinition:
      return path.size() >= 2 && path[path.size() - 2]->kind == NodeKind::kInputObjectTypeDefinition
                 ? DirectiveLocation::kInputFieldDefinition
                 : DirectiveLocation::kArgumentDefinition;
    default:
      break;
  }
  return std::nullopt;
}

}  // namespace netgraph::graphql
