// Spec (September 2025) §5.5.1.4 Fragments Must Be Used.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

void NoUnusedFragmentsRule::LeaveDocument() {
  const auto& definitions = context().document().definitions();
  NameMap<bool> used;
  for (const ast::Definition* definition : definitions) {
    if (const auto* operation = definition->As<ast::OperationDefinition>()) {
      for (const ast::FragmentDefinition* fragment :
           context().RecursivelyReferencedFragments(*operation)) {
        used.Insert(fragment->name.value, true);
      }
    }
  }
  for (const ast::Definition* definition : definitions) {
    const auto* fragment = definition->As<ast::FragmentDefinition>();
    if (fragment == nullptr || used.Find(fragment->name.value) != nullptr) continue;
    context().ReportError(StrCat({"Fragment \"", fragment->name.value, "\" is never used."}),
                          {fragment->offset});
  }
}

}  // namespace netgraph::graphql
