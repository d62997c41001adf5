#include "core/graphql/execution/prepared_document.h"

#include <algorithm>
#include <utility>

#include "core/graphql/language/visitor.h"

namespace netgraph::graphql {

namespace {

void CollectVariables(const ast::Value& literal, std::vector<std::string_view>* names) {
  if (const auto* variable = literal.As<ast::Variable>()) {
    if (std::find(names->begin(), names->end(), variable->name.value) == names->end()) {
      names->push_back(variable->name.value);
    }
  } else if (const auto* list = literal.As<ast::ListValue>()) {
    for (const ast::Value* item : list->values) CollectVariables(*item, names);
  } else if (const auto* object = literal.As<ast::ObjectValue>()) {
    for (const ast::ObjectField* field : object->fields) CollectVariables(*field->value, names);
  }
}

// Finds the variables that @skip and @include read.
class ConditionVariableFinder : public ast::Visitor {
 public:
  bool Enter(const ast::Node& node) override {
    const auto* directive = node.As<ast::Directive>();
    if (directive == nullptr) return true;
    if (directive->name.value == "skip" || directive->name.value == "include") {
      for (const ast::Argument* argument : directive->arguments) {
        CollectVariables(*argument->value, &names);
      }
    }
    return false;
  }
  std::vector<std::string_view> names;
};

}  // namespace

PreparedDocumentImpl::PreparedDocumentImpl(const void* owner, std::string source,
                                           std::unique_ptr<const ast::Document> document,
                                           std::vector<Error> errors)
    : owner_(owner), document_(std::move(document)), errors_(std::move(errors)) {
  fixed_bytes_ = sizeof(*this) + errors_.capacity() * sizeof(Error);
  for (const Error& error : errors_) {
    fixed_bytes_ += error.message.capacity() + error.locations.capacity() * sizeof(SourceLocation);
  }
  if (!document_) {
    source_ = std::move(source);
    fixed_bytes_ += source_.capacity();
    return;
  }
  fixed_bytes_ += document_->held_bytes();
  for (const ast::Definition* definition : document_->definitions()) {
    if (const auto* operation = definition->As<ast::OperationDefinition>()) {
      operations_.push_back(operation);
    } else if (const auto* fragment = definition->As<ast::FragmentDefinition>()) {
      fragments_[fragment->name.value] = fragment;
    }
  }
  ConditionVariableFinder finder;
  ast::Walk(*document_, &finder);
  condition_variables_ = std::move(finder.names);
}

PreparedDocumentImpl::~PreparedDocumentImpl() = default;

Result<const ast::OperationDefinition*> PreparedDocumentImpl::SelectOperation(
    std::optional<std::string_view> operation_name) const {
  const ast::OperationDefinition* selected = nullptr;
  for (const ast::OperationDefinition* operation : operations_) {
    if (!operation_name) {
      if (selected != nullptr) {
        return Status::InvalidArgument(
            "Must provide operation name if query contains multiple operations.");
      }
      selected = operation;
    } else if (!operation->name.empty() && operation->name.value == *operation_name) {
      selected = operation;
    }
  }
  if (selected != nullptr) return selected;
  return Status::InvalidArgument(operation_name ? "Unknown operation named \"" +
                                                      std::string(*operation_name) + "\"."
                                                : "Must provide an operation.");
}

std::optional<OperationType> PreparedDocumentImpl::OperationTypeFor(
    std::optional<std::string_view> operation_name) const {
  if (!valid()) return std::nullopt;
  Result<const ast::OperationDefinition*> operation = SelectOperation(operation_name);
  if (!operation.ok()) return std::nullopt;
  return (*operation)->operation;
}

namespace {

// Each named fragment is entered once: validation rules out cycles, not a fragment spread many
// times over.
void CollectRootFields(const ast::SelectionSet& selections, const FragmentMap& fragments,
                       std::vector<std::string_view>* entered,
                       std::vector<std::string_view>* fields) {
  for (const ast::Selection* selection : selections.selections) {
    if (const auto* field = selection->As<ast::Field>()) {
      fields->push_back(field->name.value);
    } else if (const auto* fragment = selection->As<ast::InlineFragment>()) {
      CollectRootFields(*fragment->selection_set, fragments, entered, fields);
    } else if (const auto* spread = selection->As<ast::FragmentSpread>()) {
      const auto found = fragments.find(spread->name.value);
      if (found == fragments.end() ||
          std::find(entered->begin(), entered->end(), spread->name.value) != entered->end()) {
        continue;
      }
      entered->push_back(spread->name.value);
      CollectRootFields(*found->second->selection_set, fragments, entered, fields);
    }
  }
}

}  // namespace

std::optional<OperationSummary> PreparedDocumentImpl::Describe(
    std::optional<std::string_view> operation_name) const {
  if (!valid()) return std::nullopt;
  Result<const ast::OperationDefinition*> operation = SelectOperation(operation_name);
  if (!operation.ok()) return std::nullopt;
  OperationSummary summary{(*operation)->operation, (*operation)->name.value, {}};
  std::vector<std::string_view> entered;
  CollectRootFields(*(*operation)->selection_set, fragments_, &entered, &summary.root_fields);
  return summary;
}

std::size_t PreparedDocumentImpl::held_bytes() const {
  return fixed_bytes_ + root_plans_.capacity() * sizeof(RootPlan) +
         costs_.capacity() * sizeof(costs_[0]) + planned_bytes_;
}

std::optional<std::uint64_t> PreparedDocumentImpl::FindCost(
    const ast::OperationDefinition& operation) const {
  for (const auto& [costed, cost] : costs_) {
    if (costed == &operation) return cost;
  }
  return std::nullopt;
}

void PreparedDocumentImpl::KeepCost(const ast::OperationDefinition& operation,
                                    std::uint64_t cost) const {
  costs_.emplace_back(&operation, cost);
}

const SelectionPlan* PreparedDocumentImpl::FindRootPlan(const ast::OperationDefinition& operation,
                                                        std::uint64_t condition_key) const {
  for (const RootPlan& root : root_plans_) {
    if (root.operation == &operation && root.condition_key == condition_key) {
      return root.plan.get();
    }
  }
  return nullptr;
}

const SelectionPlan* PreparedDocumentImpl::KeepRootPlan(
    const ast::OperationDefinition& operation, std::uint64_t condition_key,
    std::unique_ptr<SelectionPlan>& plan) const {
  if (root_plans_.size() >= kMaxRootPlans) return nullptr;
  planned_bytes_ += PlanBytes(*plan);
  root_plans_.push_back(RootPlan{&operation, condition_key, std::move(plan)});
  return root_plans_.back().plan.get();
}

}  // namespace netgraph::graphql
