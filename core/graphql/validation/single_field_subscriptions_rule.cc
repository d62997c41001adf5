// Spec (September 2025) §5.2.4.1 Single Root Field.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/graphql/utilities/input_literal.h"
#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

// graphql-js's collectFields over a subscription's root selection set, with no variable values:
// the root fields by response key, in order. @skip and @include are evaluated as execution would;
// an argument that does not coerce (a variable, which has no value here) makes graphql-js's
// validate() throw, which `failure` records.
class RootFieldCollector {
 public:
  RootFieldCollector(ValidationContext& context, const NamedType& root)
      : context_(context), root_(root) {}

  // False when a directive's arguments failed to coerce.
  bool Collect(const ast::SelectionSet& selection_set) {
    for (const ast::Selection* selection : selection_set.selections) {
      bool included = true;
      if (const auto* field = selection->As<ast::Field>()) {
        if (!ShouldInclude(*selection, &included)) return false;
        if (!included) continue;
        std::string_view key = field->response_key();
        if (const std::size_t* group = group_index_.Find(key)) {
          groups_[*group].second.push_back(field);
        } else {
          group_index_.Insert(key, groups_.size());
          groups_.push_back({key, {field}});
        }
      } else if (const auto* inline_fragment = selection->As<ast::InlineFragment>()) {
        if (!ShouldInclude(*selection, &included)) return false;
        if (!included || !ConditionMatches(inline_fragment->type_condition)) continue;
        if (!Collect(*inline_fragment->selection_set)) return false;
      } else {
        std::string_view name = static_cast<const ast::FragmentSpread*>(selection)->name.value;
        if (visited_fragments_.Find(name) != nullptr) continue;
        if (!ShouldInclude(*selection, &included)) return false;
        if (!included) continue;
        visited_fragments_.Insert(name, true);
        const ast::FragmentDefinition* fragment = context_.Fragment(name);
        if (fragment == nullptr || !ConditionMatches(fragment->type_condition)) continue;
        if (!Collect(*fragment->selection_set)) return false;
      }
    }
    return true;
  }

  const std::vector<std::pair<std::string_view, std::vector<const ast::Field*>>>& groups() const {
    return groups_;
  }
  const ArgumentError& failure() const { return failure_; }

 private:
  // Whether @skip(if: true) or @include(if: false) leaves the selection out; false when their
  // arguments do not coerce.
  bool ShouldInclude(const ast::Selection& selection, bool* included) {
    bool skip = false;
    if (!DirectiveCondition(selection, "skip", &skip)) return false;
    if (skip) {
      *included = false;
      return true;
    }
    bool include = true;
    if (!DirectiveCondition(selection, "include", &include)) return false;
    *included = include;
    return true;
  }

  // Sets *condition to the `if` of the first @`name` on the selection, if there is one; false
  // when its arguments do not coerce.
  bool DirectiveCondition(const ast::Selection& selection, std::string_view name, bool* condition) {
    const ast::Directive* directive = nullptr;
    for (const ast::Directive* candidate : selection.directives) {
      if (candidate->name.value == name) {
        directive = candidate;
        break;
      }
    }
    const Directive* definition = context_.schema().FindDirective(name);
    if (directive == nullptr || definition == nullptr) return true;
    std::optional<Value> arguments = CoerceArgumentValues(
        definition->arguments, directive->arguments, directive->offset, nullptr, &failure_);
    if (!arguments) return false;
    const Value* value = arguments->Find("if");
    if (value != nullptr && value->kind() == Value::Kind::kBoolean) *condition = value->as_bool();
    return true;
  }

  bool ConditionMatches(const ast::NamedType* condition) const {
    if (condition == nullptr) return true;
    const NamedType* type = context_.schema().FindType(condition->name.value);
    if (type == &root_) return true;
    return type != nullptr && IsAbstractType(*type) && context_.schema().IsSubType(*type, root_);
  }

  ValidationContext& context_;
  const NamedType& root_;
  NameMap<std::size_t> group_index_;
  std::vector<std::pair<std::string_view, std::vector<const ast::Field*>>> groups_;
  NameMap<bool> visited_fragments_;
  ArgumentError failure_;
};

}  // namespace

bool SingleFieldSubscriptionsRule::Enter(const ast::Node& node) {
  const auto& operation = static_cast<const ast::OperationDefinition&>(node);
  const NamedType* root = schema().subscription_type();
  if (operation.operation != OperationType::kSubscription || root == nullptr) return true;

  RootFieldCollector collector(context(), *root);
  if (!collector.Collect(*operation.selection_set)) {
    context().Fail(collector.failure().message, collector.failure().offset);
    return true;
  }
  const std::string subject = operation.name.empty()
                                  ? std::string("Anonymous Subscription")
                                  : StrCat({"Subscription \"", operation.name.value, "\""});
  const auto& groups = collector.groups();
  if (groups.size() > 1) {
    std::vector<std::uint32_t> extra_fields;
    for (std::size_t i = 1; i < groups.size(); ++i) {
      for (const ast::Field* field : groups[i].second) extra_fields.push_back(field->offset);
    }
    context().ReportError(subject + " must select only one top level field.", extra_fields);
  }
  for (const auto& [key, fields] : groups) {
    if (!fields[0]->name.value.starts_with("__")) continue;
    std::vector<std::uint32_t> offsets;
    for (const ast::Field* field : fields) offsets.push_back(field->offset);
    context().ReportError(subject + " must not select an introspection top level field.", offsets);
  }
  return true;
}

}  // namespace netgraph::graphql
