// Spec (September 2025) §5.5.1.3 Fragments on Object, Interface or Union Types.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool FragmentsOnCompositeTypesRule::Enter(const ast::Node& node) {
  const auto* inline_fragment = node.As<ast::InlineFragment>();
  const ast::NamedType* condition =
      inline_fragment != nullptr ? inline_fragment->type_condition
                                 : static_cast<const ast::FragmentDefinition&>(node).type_condition;
  if (condition == nullptr) return true;
  const NamedType* type = schema().FindType(condition->name.value);
  if (type == nullptr || IsCompositeType(*type)) return true;
  const std::string type_name = StrCat({"\"", condition->name.value, "\"."});
  if (inline_fragment != nullptr) {
    context().ReportError(StrCat({"Fragment cannot condition on non composite type ", type_name}),
                          {condition->offset});
  } else {
    context().ReportError(
        StrCat({"Fragment \"", static_cast<const ast::FragmentDefinition&>(node).name.value,
                "\" cannot condition on non composite type ", type_name}),
        {condition->offset});
  }
  return true;
}

}  // namespace netgraph::graphql
