// Spec (September 2025) §5.5.1.1 Fragment Name Uniqueness.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/repeated_names.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool UniqueFragmentNamesRule::Enter(const ast::Node& node) {
  const ast::Name& name = static_cast<const ast::FragmentDefinition&>(node).name;
  if (const std::uint32_t* first = SeenBefore(name, &known_names_)) {
    context().ReportError(StrCat({"There can be only one fragment named \"", name.value, "\"."}),
                          {*first, name.offset});
  }
  return true;
}

}  // namespace netgraph::graphql
