// Spec (September 2025) §5.3.1 Field Selections.
#include <algorithm>
#include <string>
#include <vector>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/utilities/suggestion_list.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

// Types on which an inline fragment would make the field queryable: the possible types of an
// abstract type that define it and their interfaces that do, most common first, then supertypes
// before subtypes, then by name (graphql-js's getSuggestedTypeNames).
std::vector<std::string_view> SuggestedTypeNames(const Schema& schema, const NamedType& type,
                                                 std::string_view field_name) {
  if (!IsAbstractType(type)) return {};
  std::vector<const NamedType*> suggested;
  std::vector<int> usage_count;  // parallel to `suggested`
  auto count = [&](const NamedType* candidate) -> int& {
    auto it = std::find(suggested.begin(), suggested.end(), candidate);
    if (it != suggested.end()) return usage_count[static_cast<std::size_t>(it - suggested.begin())];
    suggested.push_back(candidate);
    usage_count.push_back(0);
    return usage_count.back();
  };
  for (const NamedType* possible : schema.PossibleTypes(type)) {
    if (possible->FindField(field_name) == nullptr) continue;
    count(possible) = 1;
    for (const NamedType* interface : possible->interfaces) {
      if (interface->FindField(field_name) == nullptr) continue;
      ++count(interface);
    }
  }
  std::vector<std::size_t> order(suggested.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (usage_count[a] != usage_count[b]) return usage_count[a] > usage_count[b];
    const NamedType& type_a = *suggested[a];
    const NamedType& type_b = *suggested[b];
    if (type_a.kind == TypeKind::kInterface && schema.IsSubType(type_a, type_b)) return true;
    if (type_b.kind == TypeKind::kInterface && schema.IsSubType(type_b, type_a)) return false;
    return NaturalCompare(type_a.name, type_b.name) < 0;
  });
  std::vector<std::string_view> names;
  for (std::size_t i : order) names.push_back(suggested[i]->name);
  return names;
}

std::vector<std::string_view> SuggestedFieldNames(const NamedType& type,
                                                  std::string_view field_name) {
  if (type.kind != TypeKind::kObject && type.kind != TypeKind::kInterface) return {};
  std::vector<std::string_view> names;
  for (const Field& field : type.fields) names.push_back(field.name);
  return SuggestionList(field_name, names);
}

}  // namespace

bool FieldsOnCorrectTypeRule::Enter(const ast::Node& node) {
  const NamedType* parent = type_info().parent_type();
  if (parent == nullptr || type_info().field_def() != nullptr) return true;
  std::string_view name = static_cast<const ast::Field&>(node).name.value;
  std::string suggestion =
      DidYouMean(SuggestedTypeNames(schema(), *parent, name), "to use an inline fragment on");
  if (suggestion.empty()) suggestion = DidYouMean(SuggestedFieldNames(*parent, name));
  context().ReportError(
      StrCat({"Cannot query field \"", name, "\" on type \"", parent->name, "\".", suggestion}),
      {node.offset});
  return true;
}

}  // namespace netgraph::graphql
