// Spec (September 2025) §5.4.2 Argument Uniqueness.
#include <string>
#include <vector>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/repeated_names.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool UniqueArgumentNamesRule::Enter(const ast::Node& node) {
  const auto* field = node.As<ast::Field>();
  const ast::List<const ast::Argument*>& arguments =
      field != nullptr ? field->arguments : static_cast<const ast::Directive&>(node).arguments;
  auto groups =
      RepeatedNames(arguments, [](const ast::Argument* argument) { return argument->name.value; });
  for (const auto& group : groups) {
    std::vector<std::uint32_t> offsets;
    for (const ast::Argument* argument : group) offsets.push_back(argument->name.offset);
    context().ReportError(
        StrCat({"There can be only one argument named \"", group[0]->name.value, "\"."}), offsets);
  }
  return true;
}

}  // namespace netgraph::graphql
