#include "core/graphql/validation/validation_context.h"

#include <utility>

#include "core/graphql/language/visitor.h"

namespace netgraph::graphql {

namespace {

// Collects the variables used in a definition, with the input types TypeInfo gives their
// positions. Variable definitions are skipped: their directives' variables are not usages.
class VariableUsageCollector : public ast::Visitor {
 public:
  VariableUsageCollector(const Schema& schema, std::vector<VariableUsage>* usages)
      : type_info_(schema), usages_(usages) {}

  bool Enter(const ast::Node& node) override {
    if (node.kind == ast::NodeKind::kVariableDefinition) return false;
    type_info_.Enter(node);
    if (node.kind == ast::NodeKind::kVariable) {
      usages_->push_back(VariableUsage::At(static_cast<const ast::Variable&>(node), type_info_));
    }
    return true;
  }
  void Leave(const ast::Node& node) override { type_info_.Leave(node); }

 private:
  TypeInfo type_info_;
  std::vector<VariableUsage>* usages_;
};

}  // namespace

ValidationContext::ValidationContext(const Schema& schema, const ast::Document& document,
                                     const ValidationOptions& options,
                                     const ast::Document* predefined)
    : schema_(schema), document_(document), options_(options), type_info_(schema) {
  // The last definition of a name wins, as in graphql-js's name-keyed objects.
  const auto& definitions = document.definitions();
  for (std::size_t i = definitions.size(); i-- > 0;) {
    if (const auto* fragment = definitions[i]->As<ast::FragmentDefinition>()) {
      fragments_.Insert(fragment->name.value, fragment);
    } else if (const auto* directive = definitions[i]->As<ast::DirectiveDefinition>()) {
      document_directives_.Insert(directive->name.value, directive);
    }
  }
  if (predefined == nullptr) return;
  for (const ast::Definition* definition : predefined->definitions()) {
    if (const auto* directive = definition->As<ast::DirectiveDefinition>()) {
      document_directives_.Insert(directive->name.value, directive);  // unless the document has it
    }
  }
}

ValidationContext::~ValidationContext() = default;

SourceLocation ValidationContext::Locate(std::uint32_t offset) {
  if (!lines_) lines_.emplace(document_.source());
  return lines_->Locate(offset);
}

void ValidationContext::ReportError(std::string message, const std::vector<std::uint32_t>& offsets,
                                    std::string_view code) {
  if (aborted_) return;
  if (errors_.size() >= options_.max_errors) {
    errors_.push_back(
        {"Too many validation errors, error limit reached. Validation aborted.", {}, {}, {}});
    aborted_ = true;
    return;
  }
  Error error{std::move(message), {}, {}, {}};
  error.locations.reserve(offsets.size());
  for (std::uint32_t offset : offsets) error.locations.push_back(Locate(offset));
  if (!code.empty()) {
    error.extensions = Value::MakeObject({{"code", Value::String(std::string(code))}});
  }
  errors_.push_back(std::move(error));
}

void ValidationContext::Fail(std::string message, std::uint32_t offset) {
  errors_.clear();
  errors_.push_back({std::move(message), {Locate(offset)}, {}, {}});
  aborted_ = true;
}

std::size_t ValidationContext::remaining_errors() const {
  return errors_.size() >= options_.max_errors ? 0 : options_.max_errors - errors_.size();
}

const ast::FragmentDefinition* ValidationContext::Fragment(std::string_view name) const {
  const ast::FragmentDefinition* const* fragment = fragments_.Find(name);
  return fragment == nullptr ? nullptr : *fragment;
}

const ast::DirectiveDefinition* ValidationContext::DocumentDirective(std::string_view name) const {
  const ast::DirectiveDefinition* const* directive = document_directives_.Find(name);
  return directive == nullptr ? nullptr : *directive;
}

template <typename T>
T& ValidationContext::Cached(std::vector<std::unique_ptr<T>>& cache, const ast::Node& node) {
  if (cache.empty()) cache.resize(document_.node_count());
  std::unique_ptr<T>& slot = cache[node.id];
  if (slot == nullptr) slot = std::make_unique<T>();
  return *slot;
}

const std::vector<const ast::FragmentSpread*>& ValidationContext::FragmentSpreads(
    const ast::SelectionSet& selection_set) {
  bool computed = !spreads_.empty() && spreads_[selection_set.id] != nullptr;
  std::vector<const ast::FragmentSpread*>& spreads = Cached(spreads_, selection_set);
  if (computed) return spreads;
  // A stack, as graphql-js: a set's own spreads first, then its nested sets, last one first.
  std::vector<const ast::SelectionSet*> sets_to_visit{&selection_set};
  while (!sets_to_visit.empty()) {
    const ast::SelectionSet* set = sets_to_visit.back();
    sets_to_visit.pop_back();
    for (const ast::Selection* selection : set->selections) {
      if (const auto* spread = selection->As<ast::FragmentSpread>()) {
        spreads.push_back(spread);
      } else if (const auto* field = selection->As<ast::Field>()) {
        if (field->selection_set != nullptr) sets_to_visit.push_back(field->selection_set);
      } else {
        sets_to_visit.push_back(static_cast<const ast::InlineFragment*>(selection)->selection_set);
      }
    }
  }
  return spreads;
}

const std::vector<const ast::FragmentDefinition*>&
ValidationContext::RecursivelyReferencedFragments(const ast::OperationDefinition& operation) {
  static const std::vector<const ast::FragmentDefinition*> kNone;
  if (fragments_.size() == 0) return kNone;
  bool computed = !referenced_.empty() && referenced_[operation.id] != nullptr;
  std::vector<const ast::FragmentDefinition*>& fragments = Cached(referenced_, operation);
  if (computed) return fragments;
  NameMap<bool> collected;
  std::vector<const ast::SelectionSet*> sets_to_visit{operation.selection_set};
  while (!sets_to_visit.empty()) {
    const ast::SelectionSet* set = sets_to_visit.back();
    sets_to_visit.pop_back();
    for (const ast::FragmentSpread* spread : FragmentSpreads(*set)) {
      if (!collected.Insert(spread->name.value, true)) continue;
      if (const ast::FragmentDefinition* fragment = Fragment(spread->name.value)) {
        fragments.push_back(fragment);
        sets_to_visit.push_back(fragment->selection_set);
      }
    }
  }
  return fragments;
}

const std::vector<VariableUsage>& ValidationContext::VariableUsages(
    const ast::Definition& definition) {
  bool computed = !usages_.empty() && usages_[definition.id] != nullptr;
  std::vector<VariableUsage>& usages = Cached(usages_, definition);
  if (computed) return usages;
  VariableUsageCollector collector(schema_, &usages);
  ast::Walk(definition, &collector);
  return usages;
}

const std::vector<VariableUsage>& ValidationContext::RecursiveVariableUsages(
    const ast::OperationDefinition& operation) {
  const std::vector<VariableUsage>& own =
      &operation == walked_operation_ ? walked_operation_usages_ : VariableUsages(operation);
  const std::vector<const ast::FragmentDefinition*>& fragments =
      RecursivelyReferencedFragments(operation);
  if (fragments.empty()) return own;
  bool computed = !recursive_usages_.empty() && recursive_usages_[operation.id] != nullptr;
  std::vector<VariableUsage>& usages = Cached(recursive_usages_, operation);
  if (computed) return usages;
  usages = own;
  for (const ast::FragmentDefinition* fragment : fragments) {
    const std::vector<VariableUsage>& more = VariableUsages(*fragment);
    usages.insert(usages.end(), more.begin(), more.end());
  }
  return usages;
}

void ValidationContext::EnterOperation(const ast::OperationDefinition& operation) {
  walked_operation_ = &operation;
  walked_operation_usages_.clear();
}

void ValidationContext::EnterVariable(const ast::Variable& variable) {
  const std::vector<const ast::Node*>& path = ancestors();
  if (path.front() != walked_operation_) return;
  if (path.size() > 1 && path[1]->kind == ast::NodeKind::kVariableDefinition) return;
  walked_operation_usages_.push_back(VariableUsage::At(variable, type_info_));
}

}  // namespace netgraph::graphql
