// Spec (September 2025) §3.4.3 Type Extensions, and each kind's extension section (§3.5.6 Scalar
// Extensions through §3.10 Input Object Extensions): the extended type must be defined, and be of
// the extension's kind.
#include <string>
#include <vector>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/utilities/suggestion_list.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

using ast::NodeKind;

bool IsTypeDefinition(NodeKind kind) {
  switch (kind) {
    case NodeKind::kScalarTypeDefinition:
    case NodeKind::kObjectTypeDefinition:
    case NodeKind::kInterfaceTypeDefinition:
    case NodeKind::kUnionTypeDefinition:
    case NodeKind::kEnumTypeDefinition:
    case NodeKind::kInputObjectTypeDefinition:
      return true;
    default:
      return false;
  }
}

// The extension kind that may extend a definition kind.
NodeKind ExtensionKindOf(NodeKind definition_kind) {
  switch (definition_kind) {
    case NodeKind::kScalarTypeDefinition:
      return NodeKind::kScalarTypeExtension;
    case NodeKind::kObjectTypeDefinition:
      return NodeKind::kObjectTypeExtension;
    case NodeKind::kInterfaceTypeDefinition:
      return NodeKind::kInterfaceTypeExtension;
    case NodeKind::kUnionTypeDefinition:
      return NodeKind::kUnionTypeExtension;
    case NodeKind::kEnumTypeDefinition:
      return NodeKind::kEnumTypeExtension;
    default:
      return NodeKind::kInputObjectTypeExtension;
  }
}

std::string_view ExtensionKindWord(NodeKind extension_kind) {
  switch (extension_kind) {
    case NodeKind::kScalarTypeExtension:
      return "scalar";
    case NodeKind::kObjectTypeExtension:
      return "object";
    case NodeKind::kInterfaceTypeExtension:
      return "interface";
    case NodeKind::kUnionTypeExtension:
      return "union";
    case NodeKind::kEnumTypeExtension:
      return "enum";
    default:
      return "input object";
  }
}

}  // namespace

PossibleTypeExtensionsRule::PossibleTypeExtensionsRule(ValidationContext& context)
    : Rule(context, {NodeKind::kScalarTypeExtension, NodeKind::kObjectTypeExtension,
                     NodeKind::kInterfaceTypeExtension, NodeKind::kUnionTypeExtension,
                     NodeKind::kEnumTypeExtension, NodeKind::kInputObjectTypeExtension}) {
  // The last definition of a name wins, as in graphql-js's name-keyed object.
  const auto& definitions = context.document().definitions();
  for (std::size_t i = definitions.size(); i-- > 0;) {
    if (!IsTypeDefinition(definitions[i]->kind)) continue;
    const auto* type = static_cast<const ast::TypeDefinition*>(definitions[i]);
    if (defined_types_.Insert(type->name.value, type))
      defined_type_names_.push_back(type->name.value);
  }
}

bool PossibleTypeExtensionsRule::Enter(const ast::Node& node) {
  const auto& extension = static_cast<const ast::TypeDefinition&>(node);
  std::string_view name = extension.name.value;
  const ast::TypeDefinition* const* definition = defined_types_.Find(name);
  if (definition == nullptr) {
    context().ReportError(StrCat({"Cannot extend type \"", name, "\" because it is not defined.",
                                  DidYouMean(SuggestionList(name, defined_type_names_))}),
                          {extension.name.offset});
  } else if (ExtensionKindOf((*definition)->kind) != extension.kind) {
    context().ReportError(
        StrCat({"Cannot extend non-", ExtensionKindWord(extension.kind), " type \"", name, "\"."}),
        {(*definition)->offset, extension.offset});
  }
  return true;
}

}  // namespace netgraph::graphql
