// Spec (September 2025) §5.8.3 All Variable Uses Defined.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

void NoUndefinedVariablesRule::Leave(const ast::Node& node) {
  const auto& operation = static_cast<const ast::OperationDefinition&>(node);
  const std::vector<VariableUsage>& usages = context().RecursiveVariableUsages(operation);
  if (usages.empty()) return;
  NameMap<bool> defined;
  for (const ast::VariableDefinition* definition : operation.variable_definitions) {
    defined.Insert(definition->variable->name.value, true);
  }
  for (const VariableUsage& usage : usages) {
    std::string_view name = usage.node->name.value;
    if (defined.Find(name) != nullptr) continue;
    context().ReportError(operation.name.empty()
                              ? StrCat({"Variable \"$", name, "\" is not defined."})
                              : StrCat({"Variable \"$", name, "\" is not defined by operation \"",
                                        operation.name.value, "\"."}),
                          {usage.node->offset, operation.offset});
  }
}

}  // namespace netgraph::graphql
