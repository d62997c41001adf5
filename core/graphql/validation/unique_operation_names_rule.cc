// Spec (September 2025) §5.2.2.1 Operation Name Uniqueness.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/repeated_names.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool UniqueOperationNamesRule::Enter(const ast::Node& node) {
  const ast::Name& name = static_cast<const ast::OperationDefinition&>(node).name;
  if (name.empty()) return true;
  if (const std::uint32_t* first = SeenBefore(name, &known_names_)) {
    context().ReportError(StrCat({"There can be only one operation named \"", name.value, "\"."}),
                          {*first, name.offset});
  }
  return true;
}

}  // namespace netgraph::graphql
