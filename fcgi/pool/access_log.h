// What a pool worker logs about a request: one JSON access line (unless NETGRAPH_ACCESS_LOG is
// off; scrapes and health checks are left out), and for a request slower than
// NETGRAPH_SLOW_REQUEST_MS one more line saying where its time went (docs/operations.md, "Logs").
// Never the variables or the token.
#ifndef NETGRAPH_FCGI_POOL_ACCESS_LOG_H_
#define NETGRAPH_FCGI_POOL_ACCESS_LOG_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "fcgi/http/graphql_http.h"
#include "fcgi/pool/scoreboard.h"

namespace netgraph::fcgi {

// One request as it ended.
struct LoggedRequest {
  std::string_view method;
  std::string_view path;
  std::string_view request_id;
  // The W3C trace the request joined or started (daemon/trace_context.h), and its own span.
  std::string_view trace_id;
  std::string_view span_id;
  std::string_view parent_span_id;  // the caller's span; empty when the trace started here
  const GraphQLTrace& trace;
  int status = 0;
  std::size_t bytes = 0;  // of the body
  std::chrono::nanoseconds duration{0};
};

// The operation type label of a GraphQL request (none before its document selects an operation).
OperationKind KindOf(const GraphQLTrace& trace);

// Whether `path` is one that scrapes and health checks ask every few seconds: they would drown the
// requests in the access log.
bool IsRoutinePath(std::string_view path);

// Both lines carry the request id, trace_id and span_id (and parent_span_id when the caller sent
// a traceparent).
//
// The access line: "access {...}", with the status, error codes, failure, duration, size and
// caller.
std::string AccessLine(const LoggedRequest& request);

// The slow-request line: "slow request {...}", with the time spent preparing, executing and in
// the database, and per resolver (telemetry::RequestProfile, which must be running).
std::string SlowLine(const LoggedRequest& request);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_ACCESS_LOG_H_
