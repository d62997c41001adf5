// Spec (September 2025) §5.6.3 Input Object Field Uniqueness.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/repeated_names.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool UniqueInputFieldNamesRule::Enter(const ast::Node& node) {
  if (const auto* object = node.As<ast::ObjectValue>()) {
    scopes_.push_back({object, 0, {}});
    return true;
  }
  Scope& scope = scopes_.back();
  const ast::ObjectField* first = FirstOfName(
      scope.object->fields, scope.next_field++,
      [](const ast::ObjectField* field) { return field->name.value; }, &scope.first_index);
  const auto& field = static_cast<const ast::ObjectField&>(node);
  if (first != &field) {
    context().ReportError(
        StrCat({"There can be only one input field named \"", field.name.value, "\"."}),
        {first->name.offset, field.name.offset});
  }
  return true;
}

void UniqueInputFieldNamesRule::Leave(const ast::Node& node) {
  (void)node;
  scopes_.pop_back();
}

}  // namespace netgraph::graphql
