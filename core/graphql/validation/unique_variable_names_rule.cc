// Spec (September 2025) §5.8.1 Variable Uniqueness.
#include <string>
#include <vector>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/repeated_names.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool UniqueVariableNamesRule::Enter(const ast::Node& node) {
  const auto& operation = static_cast<const ast::OperationDefinition&>(node);
  auto groups = RepeatedNames(
      operation.variable_definitions,
      [](const ast::VariableDefinition* definition) { return definition->variable->name.value; });
  for (const auto& group : groups) {
    std::vector<std::uint32_t> offsets;
    for (const ast::VariableDefinition* definition : group) {
      offsets.push_back(definition->variable->name.offset);
    }
    context().ReportError(
        StrCat({"There can be only one variable named \"$", group[0]->variable->name.value, "\"."}),
        offsets);
  }
  return true;
}

}  // namespace netgraph::graphql
