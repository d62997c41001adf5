// netgraph's limits on operations (ValidationOptions::max_depth and max_aliases), not graphql-js
// rules. They measure the operation as it would execute: fragments count where they are spread,
// once per spread. Depth does not count introspection fields (named "__...") and what they select,
// which graphql-js's MaxIntrospectionDepthRule bounds.
#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

struct Shape {
  std::size_t depth = 0;    // the deepest chain of fields
  std::size_t aliases = 0;  // aliased fields, saturating
};

std::size_t SaturatingAdd(std::size_t a, std::size_t b) {
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  return a > kMax - b ? kMax : a + b;
}

class ShapeMeasure {
 public:
  explicit ShapeMeasure(const ValidationContext& context) : context_(context) {}

  Shape Measure(const ast::SelectionSet& selection_set) {
    Shape shape;
    for (const ast::Selection* selection : selection_set.selections) {
      Shape part;
      if (const auto* field = selection->As<ast::Field>()) {
        if (field->selection_set != nullptr) part = Measure(*field->selection_set);
        part.depth = field->name.value.starts_with("__") ? 0 : part.depth + 1;
        if (!field->alias.empty()) part.aliases = SaturatingAdd(part.aliases, 1);
      } else if (const auto* inline_fragment = selection->As<ast::InlineFragment>()) {
        part = Measure(*inline_fragment->selection_set);
      } else {
        part = FragmentShape(static_cast<const ast::FragmentSpread&>(*selection));
      }
      shape.depth = std::max(shape.depth, part.depth);
      shape.aliases = SaturatingAdd(shape.aliases, part.aliases);
    }
    return shape;
  }

 private:
  // Measured once per fragment. A fragment spread inside itself adds nothing: the cycle is an
  // error of its own.
  Shape FragmentShape(const ast::FragmentSpread& spread) {
    const ast::FragmentDefinition* fragment = context_.Fragment(spread.name.value);
    if (fragment == nullptr) return {};
    auto [entry, inserted] = shapes_.try_emplace(fragment);
    if (!inserted) return entry->second;
    const Shape shape = Measure(*fragment->selection_set);
    shapes_[fragment] = shape;
    return shape;
  }

  const ValidationContext& context_;
  std::unordered_map<const ast::FragmentDefinition*, Shape> shapes_;
};

}  // namespace

bool OperationLimitsRule::Enter(const ast::Node& node) {
  const ValidationOptions& options = context().options();
  if (!options.max_depth && !options.max_aliases) return true;
  const Shape shape = ShapeMeasure(context()).Measure(
      *static_cast<const ast::OperationDefinition&>(node).selection_set);
  if (options.max_depth && shape.depth > *options.max_depth) {
    context().ReportError(
        StrCat({"Query depth ", std::to_string(shape.depth), " exceeds the maximum of ",
                std::to_string(*options.max_depth), "."}),
        {node.offset});
  }
  if (options.max_aliases && shape.aliases > *options.max_aliases) {
    context().ReportError(StrCat({"Query has ", std::to_string(shape.aliases),
                                  " aliases, which exceeds the maximum of ",
                                  std::to_string(*options.max_aliases), "."}),
                          {node.offset});
  }
  return true;
}

}  // namespace netgraph::graphql
