// Spec (September 2025) §3.6 Objects, §3.7 Interfaces and §3.10 Input Objects, with their
// extensions: a type's fields, over its definition and extensions, have unique names.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/repeated_names.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

template <typename FieldDefinition>
void CheckFields(ValidationContext& context, std::string_view type_name,
                 const ast::List<const FieldDefinition*>& fields, NameMap<std::uint32_t>* known) {
  for (const FieldDefinition* field : fields) {
    if (const std::uint32_t* first = SeenBefore(field->name, known)) {
      context.ReportError(
          StrCat({"Field \"", type_name, ".", field->name.value, "\" can only be defined once."}),
          {*first, field->name.offset});
    }
  }
}

}  // namespace

UniqueFieldDefinitionNamesRule::UniqueFieldDefinitionNamesRule(ValidationContext& context)
    : Rule(context,
           {ast::NodeKind::kObjectTypeDefinition, ast::NodeKind::kObjectTypeExtension,
            ast::NodeKind::kInterfaceTypeDefinition, ast::NodeKind::kInterfaceTypeExtension,
            ast::NodeKind::kInputObjectTypeDefinition, ast::NodeKind::kInputObjectTypeExtension}) {}

bool UniqueFieldDefinitionNamesRule::Enter(const ast::Node& node) {
  const auto& type = static_cast<const ast::TypeDefinition&>(node);
  NameMap<std::uint32_t>* known = &known_fields_[type.name.value];
  if (const auto* input = type.As<ast::InputObjectTypeDefinition>()) {
    CheckFields(context(), type.name.value, input->fields, known);
  } else {
    CheckFields(context(), type.name.value,
                static_cast<const ast::ImplementingTypeDefinition&>(type).fields, known);
  }
  return true;
}

}  // namespace netgraph::graphql
