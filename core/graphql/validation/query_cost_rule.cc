// netgraph's query cost limit (ValidationOptions::max_cost), not a graphql-js rule: an estimate of
// the work an operation asks for, checked before any resolver runs (issue 9, defect 4: 30 aliased
// networkGraph(limit: 1000) in one small request).
//
// Every field costs 1. A field with a `limit` or `first` argument asks its resolver for that many
// items, so what it selects costs that many times over; such fields nested in one another
// multiply. Lists without such an argument are bounded by the sized field above them
// (networkGraph's nodes and links by its limit) or by the data itself, and count once. Fragments
// count wherever they are spread. The size is the argument's literal, or its variable's value when
// the variables are known (execution), else the variable's default in the operation; absent or
// null, the argument's default in the schema, else kDefaultListSize.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"
#include "core/graphql/validation/validate.h"

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

class CostMeasure {
 public:
  CostMeasure(const Schema& schema, const FragmentLookup& fragment,
              const ast::OperationDefinition& operation, const Value* variables)
      : schema_(schema), fragment_(fragment), operation_(operation), variables_(variables) {}

  std::uint64_t Measure(const NamedType* parent_type, const ast::SelectionSet& selection_set) {
    std::uint64_t cost = 0;
    for (const ast::Selection* selection : selection_set.selections) {
      std::uint64_t part = 0;
      if (const auto* field = selection->As<ast::Field>()) {
        part = FieldCost(parent_type, *field);
      } else if (const auto* inline_fragment = selection->As<ast::InlineFragment>()) {
        const NamedType* type = inline_fragment->type_condition == nullptr
                                    ? parent_type
                                    : schema_.FindType(inline_fragment->type_condition->name.value);
        part = Measure(type, *inline_fragment->selection_set);
      } else {
        part = FragmentCost(static_cast<const ast::FragmentSpread&>(*selection));
      }
      cost = SaturatingAdd(cost, part);
    }
    return cost;
  }

 private:
  std::uint64_t FieldCost(const NamedType* parent_type, const ast::Field& field) {
    const Field* definition =
        parent_type == nullptr ? nullptr : parent_type->FindField(field.name.value);
    if (field.selection_set == nullptr) return 1;
    const NamedType* type = definition == nullptr ? nullptr : definition->type.named();
    const std::uint64_t selected = Measure(type, *field.selection_set);
    return SaturatingAdd(1, SaturatingMultiply(Size(definition, field), selected));
  }

  // How many items `field` asks for: 1 without a `limit` or `first` argument.
  std::uint64_t Size(const Field* definition, const ast::Field& field) const {
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

  std::optional<std::uint64_t> LiteralSize(const ast::Value& literal) const {
    if (const auto* integer = literal.As<ast::IntValue>()) {
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
    if (variables_ != nullptr) {
      // Coercion has applied the operation's defaults already.
      const Value* value = variables_->Find(variable->name.value);
      return value == nullptr ? std::nullopt : SizeOf(*value);
    }
    for (const ast::VariableDefinition* definition : operation_.variable_definitions) {
      if (definition->variable->name.value == variable->name.value &&
          definition->default_value != nullptr) {
        return LiteralSize(*definition->default_value);
      }
    }
    return std::nullopt;
  }

  // Measured once per fragment. A fragment spread inside itself adds nothing: the cycle is an
  // error of its own.
  std::uint64_t FragmentCost(const ast::FragmentSpread& spread) {
    const ast::FragmentDefinition* fragment = fragment_(spread.name.value);
    if (fragment == nullptr) return 0;
    auto [entry, inserted] = costs_.try_emplace(fragment, 0);
    if (!inserted) return entry->second;
    const std::uint64_t cost =
        Measure(schema_.FindType(fragment->type_condition->name.value), *fragment->selection_set);
    costs_[fragment] = cost;
    return cost;
  }

  const Schema& schema_;
  const FragmentLookup& fragment_;
  const ast::OperationDefinition& operation_;
  const Value* variables_;
  std::unordered_map<const ast::FragmentDefinition*, std::uint64_t> costs_;
};

}  // namespace

std::uint64_t OperationCost(const Schema& schema, const FragmentLookup& fragment,
                            const ast::OperationDefinition& operation, const Value* variables) {
  return CostMeasure(schema, fragment, operation, variables)
      .Measure(schema.RootType(operation.operation), *operation.selection_set);
}

std::string CostLimitMessage(std::uint64_t cost, std::uint64_t budget) {
  return StrCat({"Query cost ", std::to_string(cost), " exceeds the maximum cost of ",
                 std::to_string(budget), "."});
}

bool QueryCostRule::Enter(const ast::Node& node) {
  const std::optional<std::uint64_t>& budget = context().options().max_cost;
  if (!budget) return false;
  const FragmentLookup fragment = [this](std::string_view name) {
    return context().Fragment(name);
  };
  const std::uint64_t cost = OperationCost(
      schema(), fragment, static_cast<const ast::OperationDefinition&>(node), nullptr);
  if (cost > *budget) {
    context().ReportError(CostLimitMessage(cost, *budget), {node.offset}, kCostLimitCode);
  }
  return false;
}

}  // namespace netgraph::graphql
