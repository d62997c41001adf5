// The engine's PreparedDocument: the parsed document (or the errors that stop it), its operations
// and fragments, and the execution plans built for it so far (selection_plan.h). A cached
// document is executed again and again without parsing, validating or collecting fields.
//
// Plans depend on the values of the variables used by @skip/@include, so root plans are kept per
// "condition key" (the state of those variables): up to kMaxRootPlans keys per document; beyond
// that, or with too many such variables, executions build throwaway plans.
//
// Thread-safety: the plan store changes during execution, which the engine contract already
// confines to one thread at a time per engine (and a document belongs to one engine).
#ifndef NETGRAPH_CORE_GRAPHQL_EXECUTION_PREPARED_DOCUMENT_H_
#define NETGRAPH_CORE_GRAPHQL_EXECUTION_PREPARED_DOCUMENT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/graphql/engine.h"
#include "core/graphql/execution/selection_plan.h"
#include "core/graphql/language/ast.h"
#include "core/status.h"

namespace netgraph::graphql {

class PreparedDocumentImpl final : public PreparedDocument {
 public:
  static constexpr std::size_t kMaxRootPlans = 16;
  // Variables that @skip/@include may name for plans to be cached (2 bits of key each).
  static constexpr std::size_t kMaxConditionVariables = 32;

  // `owner` identifies the engine that prepared it. `document` is null when parsing failed;
  // `errors` are empty when the document is valid.
  PreparedDocumentImpl(const void* owner, std::string source,
                       std::unique_ptr<const ast::Document> document, std::vector<Error> errors);
  ~PreparedDocumentImpl() override;

  bool valid() const override { return errors_.empty(); }
  const std::vector<Error>& errors() const override { return errors_; }
  std::optional<OperationType> OperationTypeFor(
      std::optional<std::string_view> operation_name) const override;
  std::optional<OperationSummary> Describe(
      std::optional<std::string_view> operation_name) const override;

  const void* owner() const { return owner_; }
  // The memory the document holds: its text, its AST arena, its errors and the plans it keeps.
  // It grows as executions keep plans.
  std::size_t held_bytes() const override;
  // What the document cache last counted for it (document_cache.h).
  std::size_t accounted_bytes() const { return accounted_bytes_; }
  void set_accounted_bytes(std::size_t bytes) const { accounted_bytes_ = bytes; }
  // Where executions add the bytes of the subplans they keep for this document (PlanInputs).
  std::size_t* planned_bytes() const { return &planned_bytes_; }
  // The query text (the cache key).
  std::string_view source() const { return document_ ? document_->source() : source_; }
  // Valid documents only.
  const ast::Document& document() const { return *document_; }
  const FragmentMap& fragments() const { return fragments_; }
  // Variables named in the `if` of @skip/@include anywhere in the document.
  const std::vector<std::string_view>& condition_variables() const { return condition_variables_; }

  // graphql-js's operation selection: the operation, or InvalidArgument with graphql-js's message
  // (no operation, several without a name asked for, an unknown name).
  Result<const ast::OperationDefinition*> SelectOperation(
      std::optional<std::string_view> operation_name) const;

  // The kept cost (operation_cost.h) of `operation`, whose sizes are not variables, or nullopt.
  std::optional<std::uint64_t> FindCost(const ast::OperationDefinition& operation) const;
  // Keeps the cost of `operation`, which must not depend on its variables' values.
  void KeepCost(const ast::OperationDefinition& operation, std::uint64_t cost) const;

  // The kept root plan of `operation` for `condition_key`, or null.
  const SelectionPlan* FindRootPlan(const ast::OperationDefinition& operation,
                                    std::uint64_t condition_key) const;
  // Keeps `plan` and returns it; when the store is full, returns null and leaves `plan` with the
  // caller.
  const SelectionPlan* KeepRootPlan(const ast::OperationDefinition& operation,
                                    std::uint64_t condition_key,
                                    std::unique_ptr<SelectionPlan>& plan) const;

 private:
  struct RootPlan {
    const ast::OperationDefinition* operation;
    std::uint64_t condition_key;
    std::unique_ptr<SelectionPlan> plan;
  };

  const void* owner_;
  std::string source_;  // only when there is no document
  std::unique_ptr<const ast::Document> document_;
  std::vector<Error> errors_;
  std::vector<const ast::OperationDefinition*> operations_;
  FragmentMap fragments_;
  std::vector<std::string_view> condition_variables_;
  mutable std::vector<RootPlan> root_plans_;
  // At most one per operation.
  mutable std::vector<std::pair<const ast::OperationDefinition*, std::uint64_t>> costs_;
  std::size_t fixed_bytes_ = 0;  // text, AST and errors
  mutable std::size_t planned_bytes_ = 0;
  mutable std::size_t accounted_bytes_ = 0;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_PREPARED_DOCUMENT_H_
