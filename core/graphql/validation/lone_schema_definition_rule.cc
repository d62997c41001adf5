// Spec (September 2025) §3.3 Schema: a document defines at most one schema.
#include <string>

#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool LoneSchemaDefinitionRule::Enter(const ast::Node& node) {
  if (seen_) context().ReportError("Must provide only one schema definition.", {node.offset});
  seen_ = true;
  return true;
}

}  // namespace netgraph::graphql
