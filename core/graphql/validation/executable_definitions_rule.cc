// Spec (September 2025) §5.1.1 Executable Definitions.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

void ExecutableDefinitionsRule::EnterDocument() {
  for (const ast::Definition* definition : context().document().definitions()) {
    if (definition->is_executable()) continue;
    std::string name;
    if (definition->As<ast::SchemaDefinition>() != nullptr) {
      name = "schema";
    } else if (const auto* directive = definition->As<ast::DirectiveDefinition>()) {
      name = StrCat({"\"", directive->name.value, "\""});
    } else {
      name = StrCat({"\"", static_cast<const ast::TypeDefinition*>(definition)->name.value, "\""});
    }
    context().ReportError(StrCat({"The ", name, " definition is not executable."}),
                          {definition->offset});
  }
}

}  // namespace netgraph::graphql
