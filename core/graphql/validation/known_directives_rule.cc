// Spec (September 2025) §5.7.1 Directives Are Defined, §5.7.2 Directives Are in Valid Locations.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/directive_facts.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool KnownDirectivesRule::Enter(const ast::Node& node) {
  std::string_view name = static_cast<const ast::Directive&>(node).name.value;
  DirectiveFacts directive(context(), name);
  if (!directive.known()) {
    context().ReportError(StrCat({"Unknown directive \"@", name, "\"."}), {node.offset});
    return true;
  }
  std::optional<DirectiveLocation> location = DirectiveLocationAt(context().ancestors());
  if (location && !directive.HasLocation(*location)) {
    context().ReportError(StrCat({"Directive \"@", name, "\" may not be used on ",
                                  DirectiveLocationName(*location), "."}),
                          {node.offset});
  }
  return true;
}

}  // namespace netgraph::graphql
