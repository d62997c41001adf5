// Running one GraphQL operation for an adapter (fcgi/graphql_http.cc; netgraph-ws still drives
// the engine itself, ws/graphql_backend.cc): prepare the query (the engine's document cache),
// describe the operation, verify the caller's token, execute, and, for a query without a token
// whose root fields are all public reads (Service::AnsweredFromReadCache), consult and fill the
// read cache with the whole answer. The run comes back with what the adapter needs to answer, log
// and count: the answer, the operation, the errors' codes and the domain's refusal that a
// resolver reported through the request scope (RequestScope::NoteFailure). Nothing here reads the
// answer's data: its shape is the client's to choose (aliases), so it says nothing reliable.
//
// The adapter keeps what is its transport's: media types, status codes, headers.
#ifndef NETGRAPH_CORE_API_OPERATION_H_
#define NETGRAPH_CORE_API_OPERATION_H_

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/operation_request.h"
#include "core/api/service.h"
#include "core/domain/failure.h"
#include "core/graphql/engine.h"

namespace netgraph::api {

struct OperationRun;

struct OperationOptions {
  // Refuse mutations before anything runs (GraphQL over HTTP's GET): the run is then
  // mutation_refused and has no answer.
  bool queries_only = false;
  // The message of the request error a subscription operation gets (the transport knows where
  // subscriptions go instead).
  std::string_view subscription_refusal = "Subscription operations are not executed here.";
  // Called once the operation is known (document, operation and prepare are set), before the token
  // is verified and anything runs: the pool's status page shows it.
  std::function<void(const OperationRun&)> on_prepared;
};

// What running one operation came to. Never the variables or the token.
struct OperationRun {
  std::shared_ptr<const graphql::PreparedDocument> document;  // keeps `operation`'s views alive
  std::optional<graphql::OperationSummary> operation;         // when the document selects one
  bool mutation_refused = false;  // OperationOptions::queries_only refused a mutation
  // The caller's credentials as verified; identity() is non-null with a valid token.
  std::unique_ptr<RequestScope> scope;
  // false: a request error (no "data" in the answer: syntax, validation, operation selection,
  // variable coercion); true: the operation was executed.
  bool has_data = false;
  std::string body;  // the response map as JSON ("errors", "data")
  bool has_errors = false;
  std::vector<std::string> error_codes;    // extensions.code of the errors that carry one
  std::optional<domain::Failure> failure;  // the first refusal a resolver reported
  std::chrono::nanoseconds prepare{0};     // parse and validate (or the document cache lookup)
  std::chrono::nanoseconds execute{0};     // execute (or the read cache lookup)
};

// Runs `request` for a caller whose Authorization header value is `authorization` (empty when
// the request has none).
OperationRun RunOperation(Service& service, const OperationRequest& request,
                          std::string_view authorization, const OperationOptions& options);

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_OPERATION_H_
