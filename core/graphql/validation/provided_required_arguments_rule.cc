// Spec (September 2025) §5.4.3 Required Arguments.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/directive_facts.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

bool IsProvided(const ast::List<const ast::Argument*>& arguments, std::string_view name) {
  for (const ast::Argument* argument : arguments) {
    if (argument->name.value == name) return true;
  }
  return false;
}

}  // namespace

// On leave, as graphql-js, so that errors inside the arguments come first.
void ProvidedRequiredArgumentsRule::Leave(const ast::Node& node) {
  const auto* field_node = node.As<ast::Field>();
  if (field_node == nullptr) {
    ProvidedRequiredArgumentsOnDirectivesRule::Leave(node);
    return;
  }
  const Field* field = type_info().field_def();
  if (field == nullptr) return;
  for (const InputValue& argument : field->arguments) {
    if (!argument.is_required() || IsProvided(field_node->arguments, argument.name)) continue;
    context().ReportError(
        StrCat({"Field \"", field->name, "\" argument \"", argument.name, "\" of type \"",
                argument.type.ToString(), "\" is required, but it was not provided."}),
        {node.offset});
  }
}

void ProvidedRequiredArgumentsOnDirectivesRule::Leave(const ast::Node& node) {
  const auto& directive = static_cast<const ast::Directive&>(node);
  DirectiveFacts facts(context(), directive.name.value);
  for (std::size_t i = 0; i < facts.argument_count(); ++i) {
    if (!facts.argument_required(i) || IsProvided(directive.arguments, facts.argument_name(i))) {
      continue;
    }
    context().ReportError(StrCat({"Directive \"@", directive.name.value, "\" argument \"",
                                  facts.argument_name(i), "\" of type \"", facts.argument_type(i),
                                  "\" is required, but it was not provided."}),
                          {node.offset});
  }
}

}  // namespace netgraph::graphql
