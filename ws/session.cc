#include "ws/session.h"

#include <algorithm>
#include <utility>

#include "daemon/trace_context.h"
#include "ws/legacy_ws_session.h"
#include "ws/messages.h"
#include "ws/transport_ws_session.h"

namespace netgraph::ws {
namespace {

// The token connection_init's payload presents, as an Authorization header value: "" when none,
// nullopt when the member is there but not a string (a malformed credential is refused).
std::optional<std::string> PayloadAuthorization(const nlohmann::json& payload) {
  if (!payload.is_object()) return std::string();
  for (const char* key : {"Authorization", "authorization"}) {
    auto member = payload.find(key);
    if (member == payload.end()) continue;
    if (!member->is_string()) return std::nullopt;
    return member->get<std::string>();
  }
  auto token = payload.find("authToken");
  if (token == payload.end()) return std::string();
  if (!token->is_string()) return std::nullopt;
  const std::string& value = token->get_ref<const std::string&>();
  if (value.empty() || value.rfind("Bearer ", 0) == 0) return value;
  return "Bearer " + value;
}

// The longest a token's validity is taken to be, and the longest a timer is set for: a far-off
// exp cannot overflow the clock, and the session re-arms its timer when it wakes before the expiry.
constexpr std::chrono::milliseconds kLongestValidity = std::chrono::hours(24 * 365 * 10);
constexpr std::chrono::milliseconds kLongestTimer = std::chrono::hours(1);

}  // namespace

std::unique_ptr<Session> Session::Create(Subprotocol subprotocol, Peer& peer, Backend& backend,
                                         const Options& options,
                                         std::string upgrade_authorization) {
  if (subprotocol == Subprotocol::kGraphqlWs) {
    return std::make_unique<LegacyWsSession>(peer, backend, options,
                                             std::move(upgrade_authorization));
  }
  return std::make_unique<TransportWsSession>(peer, backend, options,
                                              std::move(upgrade_authorization));
}

void Session::OnClosed() {
  if (!running_.empty()) backend_.StopAll(*this);
  running_.clear();
  spans_.clear();
}

void Session::OnResult(const std::string& id, const StartResult& result) {
  if (!FinishOperation(id, result) || CloseIfExpired()) return;
  SendOutcome(id, result);
}

bool Session::FinishOperation(const std::string& id, const StartResult& result) {
  if (running_.erase(id) == 0) return false;
  auto span = spans_.find(id);
  if (span == spans_.end()) return true;
  OperationLog line;
  line.id = id;
  line.operation_name = std::move(span->second.operation_name);
  line.span_id = std::move(span->second.span_id);
  line.outcome = result.kind == StartResult::Kind::kResult ? "result" : "error";
  line.error_codes = result.result.error_codes;
  line.duration = std::chrono::duration_cast<std::chrono::milliseconds>(backend_.Now() -
                                                                        span->second.started_at);
  spans_.erase(span);
  peer_.LogOperation(line);
  return true;
}

std::nullopt_t Session::Refused(OperationLog line, int code) {
  line.outcome = "refused";
  line.closed_with = code;
  peer_.LogOperation(line);
  return std::nullopt;
}

bool TokenBucket::Take(TimePoint now) {
  if (now > refilled_) {
    std::chrono::duration<double> elapsed = now - refilled_;
    tokens_ = std::min(burst_, tokens_ + elapsed.count() * per_second_);
    refilled_ = now;
  }
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

bool Session::Authenticate(const nlohmann::json& payload) {
  std::optional<std::string> authorization = PayloadAuthorization(payload);
  if (!authorization) return false;
  if (authorization->empty()) authorization = upgrade_authorization_;
  Authentication authentication = backend_.Authenticate(*authorization);
  if (authentication.context == nullptr) return false;
  authorization_ = std::move(*authorization);
  expires_at_.reset();
  if (authentication.remaining) {
    expires_at_ = backend_.Now() + std::min(*authentication.remaining, kLongestValidity);
  }
  return true;
}

std::optional<StartResult> Session::StartOperation(const std::string& id,
                                                   const OperationRequest& request) {
  OperationLog line;
  line.id = id;
  line.operation_name = request.operation_name;
  line.span_id = daemon::NewSpanId();
  if (!operation_rate_.Take(backend_.Now())) {
    CloseWith(close_code::kTooManyOperations, "Too many operations");
    return Refused(std::move(line), close_code::kTooManyOperations);
  }
  if (CloseIfExpired()) return Refused(std::move(line), close_code::kForbidden);
  // Verified again rather than kept from connection_init: a fresh context also reads the user (and
  // so the admin role) afresh.
  Authentication authentication = backend_.Authenticate(authorization_);
  if (authentication.context == nullptr) {
    CloseWith(close_code::kForbidden, "Forbidden");
    return Refused(std::move(line), close_code::kForbidden);
  }
  StartResult result;
  if (running_.size() >= options_.max_operations) {
    nlohmann::json errors = nlohmann::json::array(
        {ErrorObject("Too many subscriptions on this connection (the limit is " +
                     std::to_string(options_.max_operations) + ")")});
    result = {StartResult::Kind::kRequestError, graphql::ExecutionResult{false, {}, errors.dump()}};
  } else {
    result = backend_.Start(*this, id, request, authentication.context.get());
  }
  switch (result.kind) {
    case StartResult::Kind::kPending:
      // Logged with its outcome (FinishOperation).
      running_.insert(id);
      spans_[id] = Span{std::move(line.span_id), std::move(line.operation_name), backend_.Now()};
      return result;
    case StartResult::Kind::kSubscribed:
      running_.insert(id);
      line.outcome = "subscribed";
      spans_[id] = Span{line.span_id, line.operation_name, backend_.Now()};
      break;
    case StartResult::Kind::kResult:
      line.outcome = "result";
      break;
    case StartResult::Kind::kRequestError:
      line.outcome = "error";
      break;
  }
  line.error_codes = result.result.error_codes;
  peer_.LogOperation(line);
  return result;
}

bool Session::CloseIfExpired() {
  if (!expires_at_ || backend_.Now() < *expires_at_) return false;
  CloseWith(close_code::kForbidden, "Forbidden: token expired");
  return true;
}

void Session::ArmTimer(std::optional<std::chrono::milliseconds> delay) {
  if (expires_at_) {
    // Rounded up: a timer that fires before the expiry would only be set again.
    std::chrono::milliseconds until_expiry =
        std::max(std::chrono::milliseconds(0),
                 std::chrono::ceil<std::chrono::milliseconds>(*expires_at_ - backend_.Now()));
    delay = delay ? std::min(*delay, until_expiry) : until_expiry;
  }
  if (delay) peer_.SetTimer(std::min(*delay, kLongestTimer));
}

bool Session::StopOperation(const std::string& id) {
  if (running_.erase(id) == 0) return false;
  spans_.erase(id);
  backend_.Stop(*this, id);
  return true;
}

Result<OperationRequest> OperationRequestOf(nlohmann::json* payload) {
  if (payload == nullptr || !payload->is_object()) {
    return Status::InvalidArgument("the payload must be an object");
  }
  return api::OperationRequest::FromJson(std::move(*payload));
}

}  // namespace netgraph::ws
