#include "fcgi/pool/serve.h"

#include <chrono>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "core/crypto/hex.h"
#include "core/crypto/random_ids.h"
#include "core/log.h"
#include "core/telemetry.h"
#include "daemon/trace_context.h"
#include "fcgi/pool/access_log.h"

namespace netgraph::fcgi {
namespace {

// nginx's $request_id (32 hex digits) when it passed one that is plainly an id; else a new one of
// the same form, so every access line has one.
std::string RequestId(std::string_view given) {
  const bool usable = !given.empty() && given.size() <= 64 &&
                      given.find_first_not_of("0123456789abcdefABCDEF-") == std::string_view::npos;
  if (usable) return std::string(given);
  std::uint8_t random[16] = {};
  crypto::FillRandomIdBytes(random);
  return crypto::HexEncode(random);
}

std::string RootFieldList(const GraphQLTrace& trace) {
  std::string fields;
  if (!trace.operation) return fields;
  for (std::string_view field : trace.operation->root_fields) {
    if (!fields.empty()) fields.push_back(',');
    fields.append(field);
  }
  return fields;
}

// The outcome and code labels of a GraphQL request (docs/operations.md, "Metrics").
std::pair<std::string_view, std::string_view> Outcome(const GraphQLTrace& trace, bool crashed) {
  if (crashed) return {"internal_error", ""};
  if (!trace.executed) return {"request_error", ""};
  if (trace.has_errors) {
    return {"graphql_error",
            trace.error_codes.empty() ? "" : std::string_view(trace.error_codes[0])};
  }
  if (!trace.failure.empty()) return {"failure", trace.failure};
  return {"ok", ""};
}

// What the scoreboard counts of a GraphQL request that ended.
FinishedRequest Finished(const GraphQLTrace& trace, bool crashed, int status,
                         std::chrono::nanoseconds duration) {
  FinishedRequest finished;
  finished.kind = KindOf(trace);
  finished.root_field = trace.operation && !trace.operation->root_fields.empty()
                            ? trace.operation->root_fields[0]
                            : std::string_view();
  std::tie(finished.outcome, finished.code) = Outcome(trace, crashed);
  finished.status = status;
  finished.duration = duration;
  return finished;
}

}  // namespace

bool Serve(const fastcgi::Request& request, const fastcgi::Reply& reply, api::Service& service,
           const Router& router, const WorkerOptions& worker) {
  const auto start = std::chrono::steady_clock::now();
  // Only the slow log reads the profile.
  if (worker.slow_request.count() > 0) telemetry::RequestProfile::Begin();
  const fastcgi::HttpExchangeRequest read =
      fastcgi::ReadHttpRequest(request, router.options().max_body_bytes);
  const HttpRequest& http = read.http;
  const std::string request_id = RequestId(read.request_id);
  const daemon::TraceContext trace_context = daemon::JoinTrace(http.traceparent);
  Scoreboard* scoreboard = worker.scoreboard;
  if (scoreboard != nullptr) scoreboard->BeginRequest(http.path, request_id);

  if (read.body_too_large) {
    HttpResponse response = ErrorResponse(
        413, "Request body exceeds " + std::to_string(router.options().max_body_bytes) + " bytes");
    response.SetHeader("X-Request-Id", request_id);
    response.SetHeader("traceresponse", trace_context.Header());
    const bool written = fastcgi::WriteResponse(reply, response);
    if (scoreboard != nullptr) scoreboard->EndRequest(nullptr);
    telemetry::RequestProfile::End();
    return written;
  }

  GraphQLTrace trace;
  if (scoreboard != nullptr) {
    trace.on_operation = [scoreboard](const GraphQLTrace& known) {
      scoreboard->SetOperation(KindOf(known),
                               known.operation ? known.operation->name : std::string_view(),
                               RootFieldList(known));
    };
  }
  HttpResponse response;
  bool crashed = false;
  try {
    response = router.Route(http, service, &trace);
  } catch (const std::exception& e) {
    log::Error("request " + request_id + " failed: " + e.what());
    crashed = true;
    response = ErrorResponse(500, "Internal server error");
  }
  response.SetHeader("X-Request-Id", request_id);
  response.SetHeader("traceresponse", trace_context.Header());
  // The response goes to nginx now; counting and logging it does not delay the client.
  const bool written = fastcgi::WriteResponse(reply, response);
  const std::chrono::nanoseconds duration = std::chrono::steady_clock::now() - start;

  const bool graphql = http.path == "/graphql" && http.method != "OPTIONS";
  if (scoreboard != nullptr) {
    if (graphql) {
      const FinishedRequest finished = Finished(trace, crashed, response.status, duration);
      scoreboard->EndRequest(&finished);
    } else {
      scoreboard->EndRequest(nullptr);
    }
  }
  const LoggedRequest logged = {http.method,
                                http.path,
                                request_id,
                                trace_context.trace_id,
                                trace_context.span_id,
                                trace_context.parent_id,
                                trace,
                                response.status,
                                response.body.size(),
                                duration};
  if (worker.access_log && !IsRoutinePath(http.path)) log::Info(AccessLine(logged));
  if (worker.slow_request.count() > 0 && duration >= worker.slow_request) {
    log::Warn(SlowLine(logged));
  }
  telemetry::RequestProfile::End();
  return written;
}

}  // namespace netgraph::fcgi
