// Spec (September 2025) §5.8.4 All Variables Used.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

void NoUnusedVariablesRule::Leave(const ast::Node& node) {
  const auto& operation = static_cast<const ast::OperationDefinition&>(node);
  if (operation.variable_definitions.empty()) return;
  NameMap<bool> used;
  for (const VariableUsage& usage : context().RecursiveVariableUsages(operation)) {
    used.Insert(usage.node->name.value, true);
  }
  for (const ast::VariableDefinition* definition : operation.variable_definitions) {
    std::string_view name = definition->variable->name.value;
    if (used.Find(name) != nullptr) continue;
    context().ReportError(operation.name.empty()
                              ? StrCat({"Variable \"$", name, "\" is never used."})
                              : StrCat({"Variable \"$", name, "\" is never used in operation \"",
                                        operation.name.value, "\"."}),
                          {definition->offset});
  }
}

}  // namespace netgraph::graphql
