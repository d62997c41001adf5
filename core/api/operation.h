// Running one GraphQL operation for an adapter, the one path from an OperationRequest to the
// engine for both daemons (fcgi/http/graphql_http.cc; ws/graphql_backend.cc, on its database
// workers): resolve a persisted query and refuse an untrusted document
// (core/api/persisted_documents.h), prepare the query (the engine's document cache), describe the
// operation, verify the caller's token, execute, and, for a query without a token whose root fields
// are all public reads
// (Service::AnsweredFromReadCache), consult and fill the read cache with the whole answer. The run
// comes back with what the adapter needs to answer, log and count: the engine's result (its
// errors' codes included), the operation, and the domain's refusal that a resolver reported
// through the request scope (RequestScope::NoteFailure). Nothing here reads the answer's data: its
// shape is the client's to choose (aliases), so it says nothing reliable.
//
// Subscriptions start through Subscribe, with the same request and context (netgraph-ws).
//
// The adapter keeps what is its transport's: media types, status codes, headers, messages.
#ifndef NETGRAPH_CORE_API_OPERATION_H_
#define NETGRAPH_CORE_API_OPERATION_H_

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/api/operation_request.h"
#include "core/api/request_scope.h"
#include "core/domain/failure.h"
#include "core/graphql/engine.h"

namespace netgraph::api {

class Service;
struct OperationRun;

// Who asks for an operation.
class Caller {
 public:
  // A caller whose Authorization header value this is (empty when the request has none):
  // RunOperation verifies it once it knows the operation runs.
  static Caller WithAuthorization(std::string_view authorization) {
    return Caller(authorization, nullptr);
  }
  // A caller verified already, whose request context is `scope` (not owned; it must be of the
  // service the operation runs with). netgraph-ws verifies a connection's token on its loop thread
  // and runs the operation on a database worker with that worker's own service.
  static Caller WithScope(RequestScope& scope) { return Caller({}, &scope); }

  std::string_view authorization() const { return authorization_; }
  RequestScope* scope() const { return scope_; }

 private:
  Caller(std::string_view authorization, RequestScope* scope)
      : authorization_(authorization), scope_(scope) {}
  std::string_view authorization_;
  RequestScope* scope_;
};

struct OperationOptions {
  // Refuse mutations before anything runs (GraphQL over HTTP's GET): the run is then
  // mutation_refused and has no result.
  bool queries_only = false;
  // The message of the request error a subscription operation gets (the transport knows where
  // subscriptions go instead).
  std::string_view subscription_refusal = "Subscription operations are not executed here.";
  // The document the service's engine prepared from the request's query already (netgraph-ws
  // looks at it to choose where the operation runs); null: RunOperation prepares it.
  std::shared_ptr<const graphql::PreparedDocument> document;
  // Called once the operation is known (document, operation and prepare are set), before the token
  // is verified and anything runs: the pool's status page shows it.
  std::function<void(const OperationRun&)> on_prepared;
  // Whether the caller holds the answer of this digest already (HTTP's If-None-Match): when the
  // read cache holds the current whole answer of the request (an anonymous query of public reads)
  // and this says true of its digest, the run is not_modified and nothing executes. Unset: never.
  std::function<bool(std::string_view digest)> holds;
};

// What running one operation came to. Never the variables or the token.
struct OperationRun {
  std::shared_ptr<const graphql::PreparedDocument> document;  // keeps `operation`'s views alive
  std::optional<graphql::OperationSummary> operation;         // when the document selects one
  bool mutation_refused = false;  // OperationOptions::queries_only refused a mutation
  // The request context RunOperation made for a Caller::WithAuthorization, with the credentials as
  // verified (identity() is non-null with a valid token); null for a Caller::WithScope, and when
  // the document was refused (persisted_refusal).
  std::unique_ptr<RequestScope> scope;
  // The request's persisted query named no document known here, or its document is not trusted:
  // `result` is that request error (PERSISTED_QUERY_NOT_FOUND or PERSISTED_QUERY_NOT_ALLOWED) and
  // nothing was prepared (document and operation are unset).
  bool persisted_refusal = false;
  // The answer: has_data false for a request error (syntax, validation, operation selection,
  // variable coercion), true once the operation was executed; its errors and their codes. An
  // answer from the read cache is its data alone (answers with errors are never kept).
  graphql::ExecutionResult result;
  std::optional<domain::Failure> failure;  // the first refusal a resolver reported
  // The answer's AnswerDigest (core/api/answer_key.h) when the read cache serves it whole and it
  // has no errors; empty otherwise (a token, a mutation, errors, the read cache off, a key too
  // long).
  std::string digest;
  // OperationOptions::holds said true of the current answer's digest, found in the read cache:
  // `result` is empty, nothing was executed and the database was not asked.
  bool not_modified = false;
  std::chrono::nanoseconds prepare{0};  // parse and validate (or the document cache lookup)
  std::chrono::nanoseconds execute{0};  // execute (or the read cache lookup)
};

// Runs `request` (a query or mutation) for `caller`. A document given in `options` must be the one
// of a request resolved already (PersistedDocuments::Resolve).
OperationRun RunOperation(Service& service, OperationRequest request, const Caller& caller,
                          const OperationOptions& options);

// Starts the subscription `request` asks for (`document` is its query, prepared by the service's
// engine), its subscribe resolver running with `scope`: the engine's Subscribe, with the request's
// operation name and variables. Null with *request_error set when it does not start.
std::unique_ptr<graphql::Subscription> Subscribe(
    Service& service, std::shared_ptr<const graphql::PreparedDocument> document,
    const OperationRequest& request, RequestScope& scope, graphql::ExecutionResult* request_error);

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_OPERATION_H_
