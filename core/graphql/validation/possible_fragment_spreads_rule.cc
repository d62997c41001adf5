// Spec (September 2025) §5.5.2.3 Fragment Spread Is Possible.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool PossibleFragmentSpreadsRule::Enter(const ast::Node& node) {
  const NamedType* parent = type_info().parent_type();
  if (node.kind == ast::NodeKind::kInlineFragment) {
    const NamedType* fragment_type = type_info().type().named();
    if (fragment_type == nullptr || parent == nullptr || !IsCompositeType(*fragment_type) ||
        DoTypesOverlap(schema(), *fragment_type, *parent)) {
      return true;
    }
    context().ReportError(
        StrCat({"Fragment cannot be spread here as objects of type \"", parent->name,
                "\" can never be of type \"", fragment_type->name, "\"."}),
        {node.offset});
    return true;
  }
  std::string_view name = static_cast<const ast::FragmentSpread&>(node).name.value;
  const ast::FragmentDefinition* fragment = context().Fragment(name);
  if (fragment == nullptr || parent == nullptr) return true;
  const NamedType* fragment_type = schema().FindType(fragment->type_condition->name.value);
  if (fragment_type == nullptr || !IsCompositeType(*fragment_type) ||
      DoTypesOverlap(schema(), *fragment_type, *parent)) {
    return true;
  }
  context().ReportError(
      StrCat({"Fragment \"", name, "\" cannot be spread here as objects of type \"", parent->name,
              "\" can never be of type \"", fragment_type->name, "\"."}),
      {node.offset});
  return true;
}

}  // namespace netgraph::graphql
