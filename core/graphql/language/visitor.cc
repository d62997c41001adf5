#include "core/graphql/language/visitor.h"

namespace netgraph::graphql::ast {

namespace {

// Calls `visit` on each child of `node` in graphql-js's order.
template <typename Visit>
void ForEachChild(const Node& node, Visit visit) {
  auto visit_optional = [&](const Node* child) {
    if (child != nullptr) visit(*child);
  };
  auto visit_all = [&](const auto& list) {
    for (const Node* child : list) visit(*child);
  };
  switch (node.kind) {
    case NodeKind::kOperationDefinition: {
      const auto& n = static_cast<const OperationDefinition&>(node);
      visit_all(n.variable_definitions);
      visit_all(n.directives);
      visit(*n.selection_set);
      break;
    }
    case NodeKind::kVariableDefinition: {
      const auto& n = static_cast<const VariableDefinition&>(node);
      visit(*n.variable);
      visit(*n.type);
      visit_optional(n.default_value);
      visit_all(n.directives);
      break;
    }
    case NodeKind::kSelectionSet:
      visit_all(static_cast<const SelectionSet&>(node).selections);
      break;
    case NodeKind::kField: {
      const auto& n = static_cast<const Field&>(node);
      visit_all(n.arguments);
      visit_all(n.directives);
      visit_optional(n.selection_set);
      break;
    }
    case NodeKind::kArgument:
      visit(*static_cast<const Argument&>(node).value);
      break;
    case NodeKind::kFragmentSpread:
      visit_all(static_cast<const FragmentSpread&>(node).directives);
      break;
    case NodeKind::kInlineFragment: {
      const auto& n = static_cast<const InlineFragment&>(node);
      visit_optional(n.type_condition);
      visit_all(n.directives);
      visit(*n.selection_set);
      break;
    }
    case NodeKind::kFragmentDefinition: {
      const auto& n = static_cast<const FragmentDefinition&>(node);
      visit(*n.type_condition);
      visit_all(n.directives);
      visit(*n.selection_set);
      break;
    }
    case NodeKind::kListValue:
      visit_all(static_cast<const ListValue&>(node).values);
      break;
    case NodeKind::kObjectValue:
      visit_all(static_cast<const ObjectValue&>(node).fields);
      break;
    case NodeKind::kObjectField:
      visit(*static_cast<const ObjectField&>(node).value);
      break;
    case NodeKind::kDirective:
      visit_all(static_cast<const Directive&>(node).arguments);
      break;
    case NodeKind::kListType:
      visit(*static_cast<const ListType&>(node).type);
      break;
    case NodeKind::kNonNullType:
      visit(*static_cast<const NonNullType&>(node).type);
      break;
    case NodeKind::kSchemaDefinition:
    case NodeKind::kSchemaExtension: {
      const auto& n = static_cast<const SchemaDefinition&>(node);
      visit_optional(n.description);
      visit_all(n.directives);
      visit_all(n.operation_types);
      break;
    }
    case NodeKind::kOperationTypeDefinition:
      visit(*static_cast<const OperationTypeDefinition&>(node).type);
      break;
    case NodeKind::kScalarTypeDefinition:
    case NodeKind::kScalarTypeExtension: {
      const auto& n = static_cast<const ScalarTypeDefinition&>(node);
      visit_optional(n.description);
      visit_all(n.directives);
      break;
    }
    case NodeKind::kObjectTypeDefinition:
    case NodeKind::kObjectTypeExtension:
    case NodeKind::kInterfaceTypeDefinition:
    case NodeKind::kInterfaceTypeExtension: {
      const auto& n = static_cast<const ImplementingTypeDefinition&>(node);
      visit_optional(n.description);
      visit_all(n.interfaces);
      visit_all(n.directives);
      visit_all(n.fields);
      break;
    }
    case NodeKind::kFieldDefinition: {
      const auto& n = static_cast<const FieldDefinition&>(node);
      visit_optional(n.description);
      visit_all(n.arguments);
      visit(*n.type);
      visit_all(n.directives);
      break;
    }
    case NodeKind::kInputValueDefinition: {
      const auto& n = static_cast<const InputValueDefinition&>(node);
      visit_optional(n.description);
      visit(*n.type);
      visit_optional(n.default_value);
      visit_all(n.directives);
      break;
    }
    case NodeKind::kUnionTypeDefinition:
    case NodeKind::kUnionTypeExtension: {
      const auto& n = static_cast<const UnionTypeDefinition&>(node);
      visit_optional(n.description);
      visit_all(n.directives);
      visit_all(n.types);
      break;
    }
    case NodeKind::kEnumTypeDefinition:
    case NodeKind::kEnumTypeExtension: {
      const auto& n = static_cast<const EnumTypeDefinition&>(node);
      visit_optional(n.description);
      visit_all(n.directives);
      visit_all(n.values);
      break;
    }
    case NodeKind::kEnumValueDefinition: {
      const auto& n = static_cast<const EnumValueDefinition&>(node);
      visit_optional(n.description);
      visit_all(n.directives);
      break;
    }
    case NodeKind::kInputObjectTypeDefinition:
    case NodeKind::kInputObjectTypeExtension: {
      const auto& n = static_cast<const InputObjectTypeDefinition&>(node);
      visit_optional(n.description);
      visit_all(n.directives);
      visit_all(n.fields);
      break;
    }
    case NodeKind::kDirectiveDefinition: {
      const auto& n = static_cast<const DirectiveDefinition&>(node);
      visit_optional(n.description);
      visit_all(n.arguments);
      break;
    }
    case NodeKind::kVariable:
    case NodeKind::kIntValue:
    case NodeKind::kFloatValue:
    case NodeKind::kStringValue:
    case NodeKind::kBooleanValue:
    case NodeKind::kNullValue:
    case NodeKind::kEnumValue:
    case NodeKind::kNamedType:
      break;
  }
}

}  // namespace

void Walk(const Node& node, Visitor* visitor) {
  if (!visitor->Enter(node)) return;
  visitor->ancestors_.push_back(&node);
  ForEachChild(node, [visitor](const Node& child) { Walk(child, visitor); });
  visitor->ancestors_.pop_back();
  visitor->Leave(node);
}

void Walk(const Document& document, Visitor* visitor) {
  for (const Definition* definition : document.definitions()) Walk(*definition, visitor);
}

}  // namespace netgraph::graphql::ast
