// Spec (September 2025) §3.4 Types: all types within a schema have unique names.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/repeated_names.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

UniqueTypeNamesRule::UniqueTypeNamesRule(ValidationContext& context)
    : Rule(context,
           {ast::NodeKind::kScalarTypeDefinition, ast::NodeKind::kObjectTypeDefinition,
            ast::NodeKind::kInterfaceTypeDefinition, ast::NodeKind::kUnionTypeDefinition,
            ast::NodeKind::kEnumTypeDefinition, ast::NodeKind::kInputObjectTypeDefinition}) {}

bool UniqueTypeNamesRule::Enter(const ast::Node& node) {
  const ast::Name& name = static_cast<const ast::TypeDefinition&>(node).name;
  if (const std::uint32_t* first = SeenBefore(name, &known_names_)) {
    context().ReportError(StrCat({"There can be only one type named \"", name.value, "\"."}),
                          {*first, name.offset});
  }
  return true;
}

}  // namespace netgraph::graphql
