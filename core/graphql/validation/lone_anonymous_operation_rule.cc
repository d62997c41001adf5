// Spec (September 2025) §5.2.3.1 Lone Anonymous Operation.
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

void LoneAnonymousOperationRule::EnterDocument() {
  for (const ast::Definition* definition : context().document().definitions()) {
    if (definition->kind == ast::NodeKind::kOperationDefinition) ++operation_count_;
  }
}

bool LoneAnonymousOperationRule::Enter(const ast::Node& node) {
  if (static_cast<const ast::OperationDefinition&>(node).name.empty() && operation_count_ > 1) {
    context().ReportError("This anonymous operation must be the only defined operation.",
                          {node.offset});
  }
  return true;
}

}  // namespace netgraph::graphql
