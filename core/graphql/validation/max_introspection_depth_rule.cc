// graphql-js's MaxIntrospectionDepthRule (not a spec rule): introspection lists nested too deep.
#include <unordered_map>
#include <unordered_set>

#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

bool IsIntrospectionList(std::string_view field_name) {
  return field_name == "fields" || field_name == "interfaces" || field_name == "possibleTypes" ||
         field_name == "inputFields";
}

// graphql-js's checkDepth: a fragment spread inside itself counts as shallow, as graphql-js's
// visited set makes it. Each fragment's answer at each starting depth is remembered, so that a
// fragment spread many times costs once (exactly graphql-js's answer when fragments form no
// cycle; with cycles, which NoFragmentCyclesRule reports, it may differ).
class DepthChecker {
 public:
  DepthChecker(ValidationContext& context, std::size_t max_depth)
      : context_(context), max_depth_(max_depth) {}

  bool Exceeds(const ast::SelectionSet* selection_set, std::size_t depth) {
    if (selection_set == nullptr) return false;
    for (const ast::Selection* selection : selection_set->selections) {
      if (const auto* field = selection->As<ast::Field>()) {
        std::size_t field_depth = depth + (IsIntrospectionList(field->name.value) ? 1 : 0);
        if (field_depth >= max_depth_ || Exceeds(field->selection_set, field_depth)) return true;
      } else if (const auto* inline_fragment = selection->As<ast::InlineFragment>()) {
        if (Exceeds(inline_fragment->selection_set, depth)) return true;
      } else if (FragmentExceeds(static_cast<const ast::FragmentSpread&>(*selection), depth)) {
        return true;
      }
    }
    return false;
  }

 private:
  bool FragmentExceeds(const ast::FragmentSpread& spread, std::size_t depth) {
    const ast::FragmentDefinition* fragment = context_.Fragment(spread.name.value);
    if (fragment == nullptr || !on_path_.insert(fragment->id).second) return false;
    const std::uint64_t key = std::uint64_t{fragment->id} << 32 | depth;
    auto known = answers_.find(key);
    const bool exceeds =
        known != answers_.end() ? known->second : Exceeds(fragment->selection_set, depth);
    answers_[key] = exceeds;
    on_path_.erase(fragment->id);
    return exceeds;
  }

  ValidationContext& context_;
  const std::size_t max_depth_;
  std::unordered_set<std::uint32_t> on_path_;  // fragments being explored
  std::unordered_map<std::uint64_t, bool> answers_;
};

}  // namespace

bool MaxIntrospectionDepthRule::Enter(const ast::Node& node) {
  const auto& field = static_cast<const ast::Field&>(node);
  if (field.name.value != "__schema" && field.name.value != "__type") return true;
  DepthChecker checker(context(), context().options().max_introspection_depth);
  if (!checker.Exceeds(field.selection_set, 0)) return true;
  context().ReportError("Maximum introspection depth exceeded", {node.offset});
  return false;
}

}  // namespace netgraph::graphql
