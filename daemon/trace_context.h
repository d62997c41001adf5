// W3C Trace Context (https://www.w3.org/TR/trace-context/) for both daemons: a request joins the
// trace its `traceparent` header names, or starts one when the header is absent or malformed, and
// gets a span of its own. Its log lines (the pool's access and slow lines, netgraph-ws's upgrade
// line) carry trace_id and span_id, and the pool answers with `traceresponse` (the same format:
// version, trace id, this request's span id, flags), so a client ties its own traces to them.
#ifndef NETGRAPH_DAEMON_TRACE_CONTEXT_H_
#define NETGRAPH_DAEMON_TRACE_CONTEXT_H_

#include <string>
#include <string_view>

namespace netgraph::daemon {

struct TraceContext {
  std::string trace_id;   // 32 lowercase hex digits, never all zero
  std::string parent_id;  // the caller's span (16 hex digits); empty when the trace starts here
  std::string span_id;    // this request's span: 16 hex digits, new for each request
  std::string flags;      // 2 hex digits: the caller's (its sampled bit), "00" for a new trace

  // "00-<trace_id>-<span_id>-<flags>": the traceresponse header, or a traceparent for a callee.
  std::string Header() const;
};

// The trace `traceparent` (the header's value, empty when absent) names, with a new span; a new
// trace when the value is not a valid traceparent: version 00 exactly 55 characters, a later
// version (not ff) at least that with a '-' after them, lowercase hex, neither id all zeros.
TraceContext JoinTrace(std::string_view traceparent);

// A new span id (16 hex digits, never all zero): for a span under a request's, such as each
// operation of a WebSocket connection (ws/access_log.h).
std::string NewSpanId();

}  // namespace netgraph::daemon

#endif  // NETGRAPH_DAEMON_TRACE_CONTEXT_H_
