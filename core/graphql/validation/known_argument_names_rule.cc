// Spec (September 2025) §5.4.1 Argument Names.
#include <string>
#include <vector>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/utilities/suggestion_list.h"
#include "core/graphql/validation/directive_facts.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

// Directive arguments are checked here, not as field arguments: the directive's subtree is
// skipped.
bool KnownArgumentNamesOnDirectivesRule::Enter(const ast::Node& node) {
  const auto& directive = static_cast<const ast::Directive&>(node);
  DirectiveFacts facts(context(), directive.name.value);
  if (!facts.known()) return false;
  for (const ast::Argument* argument : directive.arguments) {
    if (facts.HasArgument(argument->name.value)) continue;
    std::vector<std::string_view> known;
    for (std::size_t i = 0; i < facts.argument_count(); ++i)
      known.push_back(facts.argument_name(i));
    context().ReportError(StrCat({"Unknown argument \"", argument->name.value,
                                  "\" on directive \"@", directive.name.value, "\".",
                                  DidYouMean(SuggestionList(argument->name.value, known))}),
                          {argument->offset});
  }
  return false;
}

bool KnownArgumentNamesRule::Enter(const ast::Node& node) {
  if (node.kind == ast::NodeKind::kDirective) {
    return KnownArgumentNamesOnDirectivesRule::Enter(node);
  }
  const Field* field = type_info().field_def();
  const NamedType* parent = type_info().parent_type();
  if (type_info().argument() != nullptr || field == nullptr || parent == nullptr) return true;
  std::string_view name = static_cast<const ast::Argument&>(node).name.value;
  std::vector<std::string_view> known;
  for (const InputValue& argument : field->arguments) known.push_back(argument.name);
  context().ReportError(StrCat({"Unknown argument \"", name, "\" on field \"", parent->name, ".",
                                field->name, "\".", DidYouMean(SuggestionList(name, known))}),
                        {node.offset});
  return true;
}

}  // namespace netgraph::graphql
