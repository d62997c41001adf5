// Spec (September 2025) §3.3.1 Root Operation Types: one root type per operation type, over the
// schema definition and its extensions.
#include <cstddef>
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool UniqueOperationTypesRule::Enter(const ast::Node& node) {
  for (const ast::OperationTypeDefinition* operation_type :
       static_cast<const ast::SchemaDefinition&>(node).operation_types) {
    const ast::OperationTypeDefinition*& first =
        defined_[static_cast<std::size_t>(operation_type->operation)];
    if (first == nullptr) {
      first = operation_type;
      continue;
    }
    context().ReportError(
        StrCat({"There can be only one ", ast::OperationTypeName(operation_type->operation),
                " type in schema."}),
        {first->offset, operation_type->offset});
  }
  return true;
}

}  // namespace netgraph::graphql
