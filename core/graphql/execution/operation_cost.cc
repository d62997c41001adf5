#include "core/graphql/execution/operation_cost.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/graphql/utilities/str_cat.h"

namespace netgraph::graphql {

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

std::uint64_t SaturatingAdd(std::uint64_t a, std::uint64_t b) {
  return a > kMax - b ? kMax : a + b;
}

std::uint64_t SaturatingMultiply(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > kMax / b ? kMax : a * b;
}

// A size from a coerced value: an Int, clamped at 0; nullopt for anything else (null).
std::optional<std::uint64_t> SizeOf(const Value& value) {
  if (value.kind() != Value::Kind::kInt) return std::nullopt;
  return static_cast<std::uint64_t>(std::max<std::int64_t>(value.as_int(), 0));
}

// One response key: the selection sets its field nodes select, and how many items the largest of
// those fields asks for.
struct MergedField {
  std::string_view response_key;
  const Field* definition = nullptr;
  std::uint64_t size = 0;
  std::vector<const ast::SelectionSet*> selection_sets;
};

// Selection sets to be merged, as one key: several field nodes of one response key select them.
using SelectionSets = std::vector<const ast::SelectionSet*>;

class CostMeasure {
 public:
  CostMeasure(const Schema& schema, const FragmentMap& fragments, const Value& variables)
      : schema_(schema), fragments_(fragments), variables_(variables) {}

  // The cost of the merged `selection_sets` on `type` (null: a meta field's type, or unknown, where
  // every fragment is taken to apply).
  std::uint64_t Measure(const NamedType* type, const SelectionSets& selection_sets) {
    if (type != nullptr && IsAbstractType(*type)) {
      std::uint64_t most = 0;
      for (const NamedType* object_type : schema_.PossibleTypes(*type)) {
        most = std::max(most, MeasureOn(object_type, selection_sets));
      }
      return most;
    }
    return MeasureOn(type, selection_sets);
  }

  // Whether costing gave up at kMaxSelectionsCosted, so that Measure's figure is too low.
  bool gave_up() const { return selections_read_ > kMaxSelectionsCosted; }
  bool read_variables() const { return read_variables_; }

 private:
  // `type` is an object type or null. Results are kept per (type, selection sets): a fragment
  // spread alone under many fields is measured once.
  std::uint64_t MeasureOn(const NamedType* type, const SelectionSets& selection_sets) {
    auto key = std::make_pair(type, selection_sets);
    if (auto kept = measured_.find(key); kept != measured_.end()) return kept->second;
    // In order of first selection; a selection set has few distinct response keys (the type's
    // fields and at most max_aliases aliases), so a linear search finds them.
    std::vector<MergedField> fields;
    std::unordered_set<const ast::FragmentDefinition*> visited;
    for (const ast::SelectionSet* selection_set : selection_sets) {
      Collect(type, *selection_set, &visited, &fields);
    }
    std::uint64_t cost = 0;
    for (const MergedField& field : fields) cost = SaturatingAdd(cost, FieldCost(field));
    measured_.emplace(std::move(key), cost);
    return cost;
  }

  std::uint64_t FieldCost(const MergedField& field) {
    if (field.selection_sets.empty()) return 1;
    const NamedType* type = field.definition == nullptr ? nullptr : field.definition->type.named();
    return SaturatingAdd(1, SaturatingMultiply(field.size, Measure(type, field.selection_sets)));
  }

  // The spec's CollectFields on an object type (or null), without @skip/@include.
  void Collect(const NamedType* type, const ast::SelectionSet& selection_set,
               std::unordered_set<const ast::FragmentDefinition*>* visited,
               std::vector<MergedField>* fields) {
    for (const ast::Selection* selection : selection_set.selections) {
      if (++selections_read_ > kMaxSelectionsCosted) return;
      if (const auto* field = selection->As<ast::Field>()) {
        MergedField& merged = Find(field->response_key(), fields);
        const Field* definition = type == nullptr ? nullptr : type->FindField(field->name.value);
        if (merged.definition == nullptr) merged.definition = definition;
        merged.size = std::max(merged.size, Size(definition, *field));
        if (field->selection_set != nullptr) merged.selection_sets.push_back(field->selection_set);
      } else if (const auto* inline_fragment = selection->As<ast::InlineFragment>()) {
        if (Applies(inline_fragment->type_condition, type)) {
          Collect(type, *inline_fragment->selection_set, visited, fields);
        }
      } else {
        const auto& spread = static_cast<const ast::FragmentSpread&>(*selection);
        auto found = fragments_.find(spread.name.value);
        if (found == fragments_.end() || !visited->insert(found->second).second) continue;
        if (Applies(found->second->type_condition, type)) {
          Collect(type, *found->second->selection_set, visited, fields);
        }
      }
    }
  }

  static MergedField& Find(std::string_view response_key, std::vector<MergedField>* fields) {
    for (MergedField& field : *fields) {
      if (field.response_key == response_key) return field;
    }
    fields->push_back(MergedField{response_key, nullptr, 0, {}});
    return fields->back();
  }

  // graphql-js's doesFragmentConditionMatch, for an object type; on an unknown type, true.
  bool Applies(const ast::NamedType* condition, const NamedType* type) const {
    if (condition == nullptr || type == nullptr) return true;
    const NamedType* condition_type = schema_.FindType(condition->name.value);
    if (condition_type == nullptr) return false;
    if (condition_type == type) return true;
    return IsAbstractType(*condition_type) && schema_.IsSubType(*condition_type, *type);
  }

  // How many items `field` asks for: 1 without a `limit` or `first` argument.
  std::uint64_t Size(const Field* definition, const ast::Field& field) {
    for (std::string_view name : {std::string_view("limit"), std::string_view("first")}) {
      const InputValue* argument = definition == nullptr ? nullptr : definition->FindArgument(name);
      if (argument == nullptr) continue;
      for (const ast::Argument* given : field.arguments) {
        if (given->name.value != name) continue;
        if (std::optional<std::uint64_t> size = LiteralSize(*given->value)) return *size;
      }
      if (argument->default_value) {
        if (std::optional<std::uint64_t> size = SizeOf(*argument->default_value)) return *size;
      }
      return kDefaultListSize;
    }
    return 1;
  }

  std::optional<std::uint64_t> LiteralSize(const ast::Value& literal) {
    if (const auto* integer = literal.As<ast::IntValue>()) {
      // An Int argument is 32 bits once valid; an argument of another type may be any integer.
      std::int64_t parsed = 0;
      const char* end = integer->value.data() + integer->value.size();
      auto [at, error] = std::from_chars(integer->value.data(), end, parsed);
      if (error == std::errc::result_out_of_range) {
        return integer->value.starts_with('-') ? 0 : kMax;
      }
      if (error != std::errc() || at != end) return std::nullopt;
      return static_cast<std::uint64_t>(std::max<std::int64_t>(parsed, 0));
    }
    const auto* variable = literal.As<ast::Variable>();
    if (variable == nullptr) return std::nullopt;
    read_variables_ = true;
    // Coercion has applied the operation's defaults already.
    const Value* value = variables_.Find(variable->name.value);
    return value == nullptr ? std::nullopt : SizeOf(*value);
  }

  const Schema& schema_;
  const FragmentMap& fragments_;
  const Value& variables_;
  std::uint64_t selections_read_ = 0;
  bool read_variables_ = false;
  std::map<std::pair<const NamedType*, SelectionSets>, std::uint64_t> measured_;
};

}  // namespace

OperationCost CostOf(const Schema& schema, const FragmentMap& fragments,
                     const ast::OperationDefinition& operation, const Value& variables) {
  CostMeasure measure(schema, fragments, variables);
  const std::uint64_t cost =
      measure.Measure(schema.RootType(operation.operation), {operation.selection_set});
  return OperationCost{measure.gave_up() ? kMax : cost, measure.read_variables()};
}

std::string CostLimitMessage(std::uint64_t cost, std::uint64_t budget) {
  return StrCat({"Query cost ", std::to_string(cost), " exceeds the maximum cost of ",
                 std::to_string(budget), "."});
}

}  // namespace netgraph::graphql
