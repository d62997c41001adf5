// Spec (September 2025) §3.9 Enums and §3.9.1 Enum Extensions: an enum's values, over its
// definition and extensions, have unique names.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/repeated_names.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool UniqueEnumValueNamesRule::Enter(const ast::Node& node) {
  const auto& type = static_cast<const ast::EnumTypeDefinition&>(node);
  NameMap<std::uint32_t>& known = known_values_[type.name.value];
  for (const ast::EnumValueDefinition* value : type.values) {
    if (const std::uint32_t* first = SeenBefore(value->name, &known)) {
      context().ReportError(StrCat({"Enum value \"", type.name.value, ".", value->name.value,
                                    "\" can only be defined once."}),
                            {*first, value->name.offset});
    }
  }
  return true;
}

}  // namespace netgraph::graphql
