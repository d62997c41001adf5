// Spec (September 2025) §5.5.1.2 Fragment Spread Type Existence (and every other named type).
#include <string>
#include <vector>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/utilities/suggestion_list.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

// graphql-js's standard types, which type system definitions may use without defining them.
constexpr std::string_view kStandardTypeNames[] = {
    "String",    "Int",      "Float",        "Boolean",
    "ID",        "__Schema", "__Directive",  "__DirectiveLocation",
    "__Type",    "__Field",  "__InputValue", "__EnumValue",
    "__TypeKind"};

bool IsTypeDefinition(ast::NodeKind kind) {
  switch (kind) {
    case ast::NodeKind::kScalarTypeDefinition:
    case ast::NodeKind::kObjectTypeDefinition:
    case ast::NodeKind::kInterfaceTypeDefinition:
    case ast::NodeKind::kUnionTypeDefinition:
    case ast::NodeKind::kEnumTypeDefinition:
    case ast::NodeKind::kInputObjectTypeDefinition:
      return true;
    default:
      return false;
  }
}

}  // namespace

KnownTypeNamesRule::KnownTypeNamesRule(ValidationContext& context)
    : Rule(context, {ast::NodeKind::kNamedType}) {
  // Types the document itself defines count as known (they are reported as not executable).
  for (const ast::Definition* definition : context.document().definitions()) {
    if (!IsTypeDefinition(definition->kind)) continue;
    std::string_view name = static_cast<const ast::TypeDefinition*>(definition)->name.value;
    if (defined_types_.Insert(name, true)) defined_type_names_.push_back(name);
  }
}

bool KnownTypeNamesRule::Enter(const ast::Node& node) {
  std::string_view name = static_cast<const ast::NamedType&>(node).name.value;
  if (schema().FindType(name) != nullptr || defined_types_.Find(name) != nullptr) return true;

  const ast::Node* definition = context().ancestors().front();
  const bool is_sdl = !static_cast<const ast::Definition*>(definition)->is_executable();
  std::vector<std::string_view> options;
  if (is_sdl) {
    for (std::string_view standard : kStandardTypeNames) {
      if (standard == name) return true;
      options.push_back(standard);
    }
  }
  for (const NamedType* type : schema().types()) options.push_back(type->name);
  options.insert(options.end(), defined_type_names_.begin(), defined_type_names_.end());
  context().ReportError(
      StrCat({"Unknown type \"", name, "\".", DidYouMean(SuggestionList(name, options))}),
      {node.offset});
  return true;
}

}  // namespace netgraph::graphql
