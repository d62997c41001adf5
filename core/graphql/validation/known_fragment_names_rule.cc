// Spec (September 2025) §5.5.2.1 Fragment Spread Target Defined.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool KnownFragmentNamesRule::Enter(const ast::Node& node) {
  const ast::Name& name = static_cast<const ast::FragmentSpread&>(node).name;
  if (context().Fragment(name.value) == nullptr) {
    context().ReportError(StrCat({"Unknown fragment \"", name.value, "\"."}), {name.offset});
  }
  return true;
}

}  // namespace netgraph::graphql
