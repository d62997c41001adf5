// The spec's "Execution" section for prepared documents: operation selection, variable coercion,
// then executing the selection sets (mutation root fields one after the other), completing values
// (lists, leaves, abstract types, objects) and propagating nulls; and, for subscriptions,
// CreateSourceStream and MapSourceToResponseEvent. Behaviour and messages follow graphql-js 16.
//
// Execution writes the response JSON straight into one string while it walks the plans
// (selection_plan.h): a field whose value fails is cut back to where it began and becomes null, or,
// for a non-null field, fails its parent in turn up to the nearest nullable position. Nothing
// builds a response tree.
#ifndef NETGRAPH_CORE_GRAPHQL_EXECUTION_EXECUTOR_H_
#define NETGRAPH_CORE_GRAPHQL_EXECUTION_EXECUTOR_H_

#include <cstdint>
#include <memory>
#include <optional>

#include "core/graphql/engine.h"
#include "core/graphql/execution/bindings.h"
#include "core/graphql/execution/prepared_document.h"

namespace netgraph::graphql {

struct ExecutorOptions {
  // The query cost limit (operation_cost.h), checked on the selected operation once its variables
  // are coerced.
  std::optional<std::uint64_t> max_cost;
  // Variable coercion errors leave out their "Did you mean" hints (StripSuggestions).
  bool hide_suggestions = false;
};

class Executor {
 public:
  Executor(const Bindings& bindings, const ExecutorOptions& options)
      : bindings_(bindings), options_(options) {}

  // A query or a mutation; anything else (an invalid document, no operation, bad variables, a
  // subscription) is a request error.
  ExecutionResult Execute(const PreparedDocumentImpl& document, const ExecuteParams& params) const;

  // The variables Execute would run with (Engine::CoerceVariables); nullopt for a request error.
  std::optional<Value> CoerceVariables(const PreparedDocumentImpl& document,
                                       const ExecuteParams& params) const;

  // CreateSourceStream: nullptr with *request_error set when the request cannot subscribe.
  std::unique_ptr<Subscription> Subscribe(std::shared_ptr<const PreparedDocumentImpl> document,
                                          const ExecuteParams& params,
                                          ExecutionResult* request_error) const;

  // MapSourceToResponseEvent for a Subscription this executor created. The subscription root
  // field's value is `event`; a resolver bound to that field gets `event` as its parent instead.
  ExecutionResult ExecuteEvent(const Subscription& subscription, const Value& event,
                               RequestContext* context) const;

 private:
  const Bindings& bindings_;
  const ExecutorOptions options_;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_EXECUTOR_H_
