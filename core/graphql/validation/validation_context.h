// What every validation rule shares during one validation (graphql-js's ValidationContext): the
// schema and document, the walk's TypeInfo and enclosing nodes, error reporting with the maxErrors
// cut-off, and facts about fragments and variables computed once on first request: a fragment by
// name, the spreads in a selection set, the fragments an operation reaches, and the variables an
// operation uses with the input types expected where they are used.
//
// Orders follow graphql-js exactly (its stack-based traversals), since they decide error order.
#ifndef NETGRAPH_CORE_GRAPHQL_VALIDATION_VALIDATION_CONTEXT_H_
#define NETGRAPH_CORE_GRAPHQL_VALIDATION_VALIDATION_CONTEXT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/graphql/error/error.h"
#include "core/graphql/language/ast.h"
#include "core/graphql/language/source_location.h"
#include "core/graphql/type/schema.h"
#include "core/graphql/utilities/name_map.h"
#include "core/graphql/utilities/type_info.h"
#include "core/graphql/validation/validate.h"

namespace netgraph::graphql {

// A variable used in a value (graphql-js's VariableUsage).
struct VariableUsage {
  const ast::Variable* node;
  TypeRef type;            // the input type expected there; invalid when unknown
  bool has_default_value;  // the argument or input field there has a default value
  TypeRef parent_type;     // the input type enclosing that position (a list or input object)

  // The usage of `variable` where `type_info` stands.
  static VariableUsage At(const ast::Variable& variable, const TypeInfo& type_info) {
    return {&variable, type_info.input_type(), type_info.has_default_value(),
            type_info.parent_input_type()};
  }
};

class ValidationContext {
 public:
  // `predefined`, when given, is a document whose directive definitions stand in for the
  // schema's, after the document's own: ValidateSdl passes the built-ins, as graphql-js's SDL
  // rules fall back to its specifiedDirectives when there is no schema yet.
  ValidationContext(const Schema& schema, const ast::Document& document,
                    const ValidationOptions& options, const ast::Document* predefined = nullptr);
  ValidationContext(const ValidationContext&) = delete;
  ValidationContext& operator=(const ValidationContext&) = delete;
  ~ValidationContext();

  const Schema& schema() const { return schema_; }
  const ast::Document& document() const { return document_; }
  const ValidationOptions& options() const { return options_; }
  const TypeInfo& type_info() const { return type_info_; }
  TypeInfo& mutable_type_info() { return type_info_; }

  // The nodes enclosing the node being visited, outermost (a definition) first. Set by the walk.
  const std::vector<const ast::Node*>& ancestors() const { return *ancestors_; }
  void set_ancestors(const std::vector<const ast::Node*>* ancestors) { ancestors_ = ancestors; }

  // Records an error located at the given byte offsets, with `code` (when not empty) as its
  // extensions.code. Past options().max_errors, records graphql-js's "Too many validation errors"
  // instead and aborts.
  void ReportError(std::string message, const std::vector<std::uint32_t>& offsets,
                   std::string_view code = {});
  void ReportError(std::string message, std::initializer_list<std::uint32_t> offsets,
                   std::string_view code = {}) {
    ReportError(std::move(message), std::vector<std::uint32_t>(offsets), code);
  }
  // Ends validation with `error` as its only result: what graphql-js's validate() throws.
  void Fail(std::string message, std::uint32_t offset);
  // Validation has stopped: nothing more is reported.
  bool aborted() const { return aborted_; }
  // How many more errors may be reported before the cut-off error.
  std::size_t remaining_errors() const;
  std::vector<Error> TakeErrors() { return std::move(errors_); }

  // The fragment definition named `name` (the last one, when several share it), or nullptr.
  const ast::FragmentDefinition* Fragment(std::string_view name) const;
  // A directive definition of the document itself (the last one of that name), else of the
  // `predefined` document, or nullptr. Like
  // graphql-js, the directive rules let it stand in for the schema's directive of that name.
  const ast::DirectiveDefinition* DocumentDirective(std::string_view name) const;
  // The spreads in `selection_set` and in the fields and inline fragments it contains, in
  // graphql-js's order (getFragmentSpreads).
  const std::vector<const ast::FragmentSpread*>& FragmentSpreads(
      const ast::SelectionSet& selection_set);
  // The defined fragments `operation` spreads, directly or through other fragments, in
  // graphql-js's order (getRecursivelyReferencedFragments).
  const std::vector<const ast::FragmentDefinition*>& RecursivelyReferencedFragments(
      const ast::OperationDefinition& operation);
  // The variables used in `operation` and the fragments it reaches (getRecursiveVariableUsages).
  // Asked when the walk leaves the operation.
  const std::vector<VariableUsage>& RecursiveVariableUsages(
      const ast::OperationDefinition& operation);

  // Called by the walk, with TypeInfo on the node: an operation records the variables it uses as
  // it is walked (graphql-js walks it again, with a TypeInfo of its own that sees the same
  // types), so that only fragments need a walk of their own.
  void EnterOperation(const ast::OperationDefinition& operation);
  void EnterVariable(const ast::Variable& variable);

 private:
  // A per-node cache slot, created on first use.
  template <typename T>
  T& Cached(std::vector<std::unique_ptr<T>>& cache, const ast::Node& node);
  // The variables used in a definition, outside its variable definitions (getVariableUsages).
  const std::vector<VariableUsage>& VariableUsages(const ast::Definition& definition);
  SourceLocation Locate(std::uint32_t offset);

  const Schema& schema_;
  const ast::Document& document_;
  const ValidationOptions& options_;
  TypeInfo type_info_;
  const std::vector<const ast::Node*>* ancestors_ = nullptr;

  std::vector<Error> errors_;
  bool aborted_ = false;
  std::optional<LineIndex> lines_;  // built on the first error

  NameMap<const ast::FragmentDefinition*> fragments_;
  NameMap<const ast::DirectiveDefinition*> document_directives_;
  std::vector<std::unique_ptr<std::vector<const ast::FragmentSpread*>>> spreads_;
  std::vector<std::unique_ptr<std::vector<const ast::FragmentDefinition*>>> referenced_;
  std::vector<std::unique_ptr<std::vector<VariableUsage>>> usages_;
  std::vector<std::unique_ptr<std::vector<VariableUsage>>> recursive_usages_;
  // The operation being walked and the variables it has used so far.
  const ast::OperationDefinition* walked_operation_ = nullptr;
  std::vector<VariableUsage> walked_operation_usages_;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_VALIDATION_VALIDATION_CONTEXT_H_
