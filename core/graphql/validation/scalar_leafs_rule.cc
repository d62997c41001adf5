// Spec (September 2025) §5.3.3 Leaf Field Selections.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool ScalarLeafsRule::Enter(const ast::Node& node) {
  const auto& field = static_cast<const ast::Field&>(node);
  TypeRef type = type_info().type();
  if (!type.valid()) return true;
  const bool is_leaf = IsLeafType(*type.named());
  if (is_leaf && field.selection_set != nullptr) {
    context().ReportError(
        StrCat({"Field \"", field.name.value, "\" must not have a selection since type \"",
                type.ToString(), "\" has no subfields."}),
        {field.selection_set->offset});
  } else if (!is_leaf && field.selection_set == nullptr) {
    const std::string name(field.name.value);
    context().ReportError(
        StrCat({"Field \"", name, "\" of type \"", type.ToString(),
                "\" must have a selection of subfields. Did you mean \"", name, " { ... }\"?"}),
        {field.offset});
  }
  return true;
}

}  // namespace netgraph::graphql
