#include "core/graphql/language/ast.h"

#include <algorithm>
#include <utility>

#include "core/graphql/language/source_location.h"

namespace netgraph::graphql::ast {

namespace {

// A first arena block in proportion to the source: most documents then fit in one block.
std::size_t FirstBlockBytes(std::size_t source_bytes) {
  return std::clamp<std::size_t>(source_bytes * 4, 1024, std::size_t{1} << 20);
}

}  // namespace

Document::Document(std::string source)
    : source_(std::move(source)), arena_(FirstBlockBytes(source_.size())) {}

SourceLocation Document::Locate(std::uint32_t offset) const {
  return LocateOffset(source_, offset);
}

const List<const Directive*>* DirectivesOf(const Node& node) {
  if (const auto* n = node.As<OperationDefinition>()) return &n->directives;
  if (const auto* n = node.As<VariableDefinition>()) return &n->directives;
  if (const auto* n = node.As<Selection>()) return &n->directives;
  if (const auto* n = node.As<FragmentDefinition>()) return &n->directives;
  if (const auto* n = node.As<SchemaDefinition>()) return &n->directives;
  if (const auto* n = node.As<TypeDefinition>()) return &n->directives;
  if (const auto* n = node.As<FieldDefinition>()) return &n->directives;
  if (const auto* n = node.As<InputValueDefinition>()) return &n->directives;
  if (const auto* n = node.As<EnumValueDefinition>()) return &n->directives;
  return nullptr;
}

std::string_view OperationTypeName(OperationType operation) {
  switch (operation) {
    case OperationType::kQuery:
      return "query";
    case OperationType::kMutation:
      return "mutation";
    case OperationType::kSubscription:
      return "subscription";
  }
  return "";
}

std::string_view NodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kOperationDefinition:
      return "OperationDefinition";
    case NodeKind::kVariableDefinition:
      return "VariableDefinition";
    case NodeKind::kSelectionSet:
      return "SelectionSet";
    case NodeKind::kField:
      return "Field";
    case NodeKind::kArgument:
      return "Argument";
    case NodeKind::kFragmentSpread:
      return "FragmentSpread";
    case NodeKind::kInlineFragment:
      return "InlineFragment";
    case NodeKind::kFragmentDefinition:
      return "FragmentDefinition";
    case NodeKind::kVariable:
      return "Variable";
    case NodeKind::kIntValue:
      return "IntValue";
    case NodeKind::kFloatValue:
      return "FloatValue";
    case NodeKind::kStringValue:
      return "StringValue";
    case NodeKind::kBooleanValue:
      return "BooleanValue";
    case NodeKind::kNullValue:
      return "NullValue";
    case NodeKind::kEnumValue:
      return "EnumValue";
    case NodeKind::kListValue:
      return "ListValue";
    case NodeKind::kObjectValue:
      return "ObjectValue";
    case NodeKind::kObjectField:
      return "ObjectField";
    case NodeKind::kDirective:
      return "Directive";
    case NodeKind::kNamedType:
      return "NamedType";
    case NodeKind::kListType:
      return "ListType";
    case NodeKind::kNonNullType:
      return "NonNullType";
    case NodeKind::kSchemaDefinition:
      return "SchemaDefinition";
    case NodeKind::kOperationTypeDefinition:
      return "OperationTypeDefinition";
    case NodeKind::kScalarTypeDefinition:
      return "ScalarTypeDefinition";
    case NodeKind::kObjectTypeDefinition:
      return "ObjectTypeDefinition";
    case NodeKind::kFieldDefinition:
      return "FieldDefinition";
    case NodeKind::kInputValueDefinition:
      return "InputValueDefinition";
    case NodeKind::kInterfaceTypeDefinition:
      return "InterfaceTypeDefinition";
    case NodeKind::kUnionTypeDefinition:
      return "UnionTypeDefinition";
    case NodeKind::kEnumTypeDefinition:
      return "EnumTypeDefinition";
    case NodeKind::kEnumValueDefinition:
      return "EnumValueDefinition";
    case NodeKind::kInputObjectTypeDefinition:
      return "InputObjectTypeDefinition";
    case NodeKind::kDirectiveDefinition:
      return "DirectiveDefinition";
    case NodeKind::kSchemaExtension:
      return "SchemaExtension";
    case NodeKind::kScalarTypeExtension:
      return "ScalarTypeExtension";
    case NodeKind::kObjectTypeExtension:
      return "ObjectTypeExtension";
    case NodeKind::kInterfaceTypeExtension:
      return "InterfaceTypeExtension";
    case NodeKind::kUnionTypeExtension:
      return "UnionTypeExtension";
    case NodeKind::kEnumTypeExtension:
      return "EnumTypeExtension";
    case NodeKind::kInputObjectTypeExtension:
      return "InputObjectTypeExtension";
  }
  return "";
}

}  // namespace netgraph::graphql::ast
