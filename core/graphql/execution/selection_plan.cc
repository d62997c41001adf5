#include "core/graphql/execution/selection_plan.h"

#include <unordered_set>
#include <utility>

#include "core/graphql/execution/json_writer.h"

namespace netgraph::graphql {

namespace {

enum class Inclusion { kInclude, kExclude, kError };

// Collects the fields of selection sets for one object type into a plan.
class Collector {
 public:
  Collector(const PlanInputs& inputs, const NamedType& object_type)
      : inputs_(inputs), schema_(*inputs.bindings.schema), type_(object_type) {}

  // Returns false on a collection error (then `error()` says what).
  bool Collect(const ast::SelectionSet& selection_set) {
    for (const ast::Selection* selection : selection_set.selections) {
      const Inclusion inclusion = Evaluate(*selection);
      if (inclusion == Inclusion::kError) return false;
      if (inclusion == Inclusion::kExclude) continue;
      switch (selection->kind) {
        case ast::NodeKind::kField: {
          const auto& field = static_cast<const ast::Field&>(*selection);
          const std::string_view key = field.response_key();
          auto [entry, added] = index_by_key_.try_emplace(key, groups_.size());
          if (added) groups_.emplace_back(key, std::vector<const ast::Field*>());
          groups_[entry->second].second.push_back(&field);
          break;
        }
        case ast::NodeKind::kInlineFragment: {
          const auto& fragment = static_cast<const ast::InlineFragment&>(*selection);
          if (!ConditionMatches(fragment.type_condition)) continue;
          if (!Collect(*fragment.selection_set)) return false;
          break;
        }
        case ast::NodeKind::kFragmentSpread: {
          const auto& spread = static_cast<const ast::FragmentSpread&>(*selection);
          if (!visited_fragments_.insert(spread.name.value).second) continue;
          auto found = inputs_.fragments.find(spread.name.value);
          if (found == inputs_.fragments.end()) continue;
          const ast::FragmentDefinition& fragment = *found->second;
          if (!ConditionMatches(fragment.type_condition)) continue;
          if (!Collect(*fragment.selection_set)) return false;
          break;
        }
        default:
          break;
      }
    }
    return true;
  }

  const CollectionError& error() const { return error_; }

  // The collected fields, planned.
  std::vector<FieldPlan> TakeFields() {
    std::vector<FieldPlan> fields;
    fields.reserve(groups_.size());
    for (auto& [key, nodes] : groups_) {
      const Field* definition = schema_.FieldDef(type_, nodes[0]->name.value);
      if (definition == nullptr) continue;  // graphql-js leaves such a key out
      fields.push_back(PlanField(key, std::move(nodes), *definition));
    }
    return fields;
  }

 private:
  // graphql-js's shouldIncludeNode: @skip(if: true) or @include(if: false) leave a selection out.
  Inclusion Evaluate(const ast::Selection& selection) {
    for (std::string_view name : {std::string_view("skip"), std::string_view("include")}) {
      const ast::Directive* directive = nullptr;  // the first one counts, as in graphql-js
      for (const ast::Directive* candidate : selection.directives) {
        if (candidate->name.value == name) {
          directive = candidate;
          break;
        }
      }
      if (directive == nullptr) continue;
      const Directive* definition = schema_.FindDirective(name);
      if (definition == nullptr) continue;
      ArgumentError argument_error;
      std::optional<Value> arguments =
          CoerceArgumentValues(definition->arguments, directive->arguments, directive->offset,
                               inputs_.variables, &argument_error);
      if (!arguments) {
        error_ = CollectionError{std::move(argument_error.message), argument_error.offset};
        return Inclusion::kError;
      }
      const Value* condition = arguments->Find("if");
      if (condition == nullptr || condition->kind() != Value::Kind::kBoolean) continue;
      if (condition->as_bool() == (name == "skip")) return Inclusion::kExclude;
    }
    return Inclusion::kInclude;
  }

  // graphql-js's doesFragmentConditionMatch.
  bool ConditionMatches(const ast::NamedType* condition) const {
    if (condition == nullptr) return true;
    const NamedType* condition_type = schema_.FindType(condition->name.value);
    if (condition_type == nullptr) return false;
    if (condition_type == &type_) return true;
    return IsAbstractType(*condition_type) && schema_.IsSubType(*condition_type, type_);
  }

  FieldPlan PlanField(std::string_view key, std::vector<const ast::Field*> nodes,
                      const Field& definition) {
    FieldPlan field;
    field.response_key = key;
    field.json_key = "," + json::Quote(key) + ":";
    field.parent_type = &type_;
    field.definition = &definition;
    field.nodes = std::move(nodes);
    if (&definition == &schema_.typename_meta_field()) {
      field.resolution = FieldResolution::kTypename;
      field.typename_json = json::Quote(type_.name);
    } else if ((field.resolver = inputs_.bindings.FindResolver(definition)) != nullptr) {
      field.resolution = FieldResolution::kResolver;
    }
    if (definition.arguments.empty()) {
      const TypeRef type = definition.type.Nullable();
      if (field.resolution == FieldResolution::kDefault && type.is_named() &&
          IsLeafType(*type.named())) {
        field.leaf_type = type.named();
        field.leaf_kind = inputs_.bindings.leaf_kind(*type.named());
        field.string_leaf = field.leaf_kind == LeafKind::kString ||
                            field.leaf_kind == LeafKind::kId ||
                            field.leaf_kind == LeafKind::kCustom;
      }
      return field;
    }
    const ast::Field& first = *field.nodes[0];
    for (const ast::Argument* argument : first.arguments) {
      if (ContainsVariable(*argument->value)) {
        field.argument_mode = ArgumentMode::kPerRequest;
        return field;
      }
    }
    field.argument_mode = ArgumentMode::kConstant;
    ArgumentError argument_error;
    std::optional<Value> arguments = CoerceArgumentValues(definition.arguments, first.arguments,
                                                          first.offset, nullptr, &argument_error);
    if (arguments) {
      field.arguments = std::move(*arguments);
    } else {
      field.argument_error = std::move(argument_error);
    }
    return field;
  }

  const PlanInputs& inputs_;
  const Schema& schema_;
  const NamedType& type_;
  std::unordered_map<std::string_view, std::size_t> index_by_key_;
  std::vector<std::pair<std::string_view, std::vector<const ast::Field*>>> groups_;
  std::unordered_set<std::string_view> visited_fragments_;
  CollectionError error_;
};

}  // namespace

bool ContainsVariable(const ast::Value& literal) {
  switch (literal.kind) {
    case ast::NodeKind::kVariable:
      return true;
    case ast::NodeKind::kListValue:
      for (const ast::Value* item : static_cast<const ast::ListValue&>(literal).values) {
        if (ContainsVariable(*item)) return true;
      }
      return false;
    case ast::NodeKind::kObjectValue:
      for (const ast::ObjectField* field : static_cast<const ast::ObjectValue&>(literal).fields) {
        if (ContainsVariable(*field->value)) return true;
      }
      return false;
    default:
      return false;
  }
}

std::unique_ptr<SelectionPlan> BuildSelectionPlan(
    const PlanInputs& inputs, const NamedType& object_type,
    const std::vector<const ast::SelectionSet*>& selection_sets) {
  auto plan = std::make_unique<SelectionPlan>();
  plan->type = &object_type;
  Collector collector(inputs, object_type);
  for (const ast::SelectionSet* selection_set : selection_sets) {
    if (!collector.Collect(*selection_set)) {
      plan->error = collector.error();
      return plan;
    }
  }
  plan->fields = collector.TakeFields();
  return plan;
}

std::size_t PlanBytes(const SelectionPlan& plan) {
  std::size_t bytes = sizeof(SelectionPlan) + plan.fields.capacity() * sizeof(FieldPlan);
  for (const FieldPlan& field : plan.fields) {
    bytes += field.json_key.capacity() + field.typename_json.capacity() +
             field.nodes.capacity() * sizeof(const ast::Field*) +
             field.subplans.capacity() * sizeof(std::unique_ptr<SelectionPlan>) +
             field.locations.capacity() * sizeof(SourceLocation);
  }
  return bytes;
}

const SelectionPlan& SubselectionPlan(const PlanInputs& inputs, const FieldPlan& field,
                                      const NamedType& object_type) {
  for (const std::unique_ptr<SelectionPlan>& plan : field.subplans) {
    if (plan->type == &object_type) return *plan;
  }
  std::vector<const ast::SelectionSet*> selection_sets;
  for (const ast::Field* node : field.nodes) {
    if (node->selection_set != nullptr) selection_sets.push_back(node->selection_set);
  }
  field.subplans.push_back(BuildSelectionPlan(inputs, object_type, selection_sets));
  if (inputs.planned_bytes != nullptr) {
    *inputs.planned_bytes += PlanBytes(*field.subplans.back()) + sizeof(SelectionPlan*);
  }
  return *field.subplans.back();
}

}  // namespace netgraph::graphql
