// Spec (September 2025) §3.6.1 Field Arguments and §3.13 Directives: the arguments of a field or
// directive definition have unique names.
#include <string>
#include <vector>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/repeated_names.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

UniqueArgumentDefinitionNamesRule::UniqueArgumentDefinitionNamesRule(ValidationContext& context)
    : Rule(context, {ast::NodeKind::kDirectiveDefinition, ast::NodeKind::kObjectTypeDefinition,
                     ast::NodeKind::kObjectTypeExtension, ast::NodeKind::kInterfaceTypeDefinition,
                     ast::NodeKind::kInterfaceTypeExtension}) {}

bool UniqueArgumentDefinitionNamesRule::Enter(const ast::Node& node) {
  if (const auto* directive = node.As<ast::DirectiveDefinition>()) {
    CheckArguments(StrCat({"@", directive->name.value}), directive->arguments);
    return true;
  }
  const auto& type = static_cast<const ast::ImplementingTypeDefinition&>(node);
  for (const ast::FieldDefinition* field : type.fields) {
    CheckArguments(StrCat({type.name.value, ".", field->name.value}), field->arguments);
  }
  return true;
}

void UniqueArgumentDefinitionNamesRule::CheckArguments(
    std::string_view owner, const ast::List<const ast::InputValueDefinition*>& arguments) {
  auto groups = RepeatedNames(
      arguments, [](const ast::InputValueDefinition* argument) { return argument->name.value; });
  for (const auto& group : groups) {
    std::vector<std::uint32_t> offsets;
    for (const ast::InputValueDefinition* argument : group)
      offsets.push_back(argument->name.offset);
    context().ReportError(
        StrCat({"Argument \"", owner, "(", group[0]->name.value, ":)\" can only be defined once."}),
        offsets);
  }
}

}  // namespace netgraph::graphql
