// Spec (September 2025) §5.8.2 Variables Are Input Types.
#include <string>

#include "core/graphql/language/printer.h"
#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool VariablesAreInputTypesRule::Enter(const ast::Node& node) {
  const auto& definition = static_cast<const ast::VariableDefinition&>(node);
  TypeRef type = TypeFromAst(schema(), *definition.type);
  if (type.valid() && !IsInputType(type)) {
    context().ReportError(
        StrCat({"Variable \"$", definition.variable->name.value, "\" cannot be non-input type \"",
                Print(*definition.type), "\"."}),
        {definition.type->offset});
  }
  return true;
}

}  // namespace netgraph::graphql
