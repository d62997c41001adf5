// Spec (September 2025) §5.7.3 Directives Are Unique per Location.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/directive_facts.h"
#include "core/graphql/validation/repeated_names.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

using ast::NodeKind;

std::string_view DirectiveName(const ast::Directive* directive) { return directive->name.value; }

}  // namespace

UniqueDirectivesPerLocationRule::UniqueDirectivesPerLocationRule(ValidationContext& context)
    : Rule(context, {NodeKind::kOperationDefinition,
                     NodeKind::kVariableDefinition,
                     NodeKind::kField,
                     NodeKind::kFragmentSpread,
                     NodeKind::kInlineFragment,
                     NodeKind::kFragmentDefinition,
                     NodeKind::kSchemaDefinition,
                     NodeKind::kSchemaExtension,
                     NodeKind::kScalarTypeDefinition,
                     NodeKind::kObjectTypeDefinition,
                     NodeKind::kInterfaceTypeDefinition,
                     NodeKind::kUnionTypeDefinition,
                     NodeKind::kEnumTypeDefinition,
                     NodeKind::kInputObjectTypeDefinition,
                     NodeKind::kScalarTypeExtension,
                     NodeKind::kObjectTypeExtension,
                     NodeKind::kInterfaceTypeExtension,
                     NodeKind::kUnionTypeExtension,
                     NodeKind::kEnumTypeExtension,
                     NodeKind::kInputObjectTypeExtension,
                     NodeKind::kFieldDefinition,
                     NodeKind::kInputValueDefinition,
                     NodeKind::kEnumValueDefinition}) {}

bool UniqueDirectivesPerLocationRule::Enter(const ast::Node& node) {
  const ast::List<const ast::Directive*>* listed = ast::DirectivesOf(node);
  if (listed == nullptr || listed->empty()) return true;
  const ast::List<const ast::Directive*>& directives = *listed;
  // The schema's definition and extensions share one location; so do a type's.
  std::vector<const ast::Directive*>* shared = nullptr;
  if (node.As<ast::SchemaDefinition>() != nullptr) {
    shared = &schema_directives_;
  } else if (const auto* type = node.As<ast::TypeDefinition>()) {
    for (auto& [name, seen] : type_directives_) {
      if (name == type->name.value) shared = &seen;
    }
    if (shared == nullptr)
      shared =
          &type_directives_.emplace_back(type->name.value, std::vector<const ast::Directive*>{})
               .second;
  }
  NameMap<std::uint32_t> first_index;
  for (std::size_t i = 0; i < directives.size(); ++i) {
    const ast::Directive* directive = directives[i];
    DirectiveFacts facts(context(), directive->name.value);
    if (!facts.known() || facts.repeatable()) continue;
    const ast::Directive* first = nullptr;
    if (shared != nullptr) {
      for (const ast::Directive* seen : *shared) {
        if (seen->name.value == directive->name.value) first = seen;
      }
      if (first == nullptr) shared->push_back(directive);
    } else {
      first = FirstOfName(directives, i, DirectiveName, &first_index);
      if (first == directive) first = nullptr;
    }
    if (first != nullptr) {
      context().ReportError(StrCat({"The directive \"@", directive->name.value,
                                    "\" can only be used once at this location."}),
                            {first->offset, directive->offset});
    }
  }
  return true;
}

}  // namespace netgraph::graphql
