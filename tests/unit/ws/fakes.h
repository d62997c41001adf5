// Test doubles for the ws session tests: a Peer that records what a session sends and logs, and a
// Backend whose answers and clock the test sets.
#ifndef NETGRAPH_TESTS_UNIT_WS_FAKES_H_
#define NETGRAPH_TESTS_UNIT_WS_FAKES_H_

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ws/session.h"

namespace netgraph::ws::testing {

class FakePeer : public Peer {
 public:
  void Send(OutgoingMessage message) override {
    std::string text = message.head;
    if (message.shared) text += *message.shared;
    text += message.tail;
    if (!closed) sent.push_back(std::move(text));
  }
  void Close(int code, std::string_view reason) override {
    if (closed) return;
    closed = true;
    close_code = code;
    close_reason = std::string(reason);
  }
  void SetTimer(std::chrono::milliseconds delay) override { timer = delay; }
  void LogOperation(const OperationLog& line) override { logged.push_back(line); }

  // The sent messages parsed, and the last one.
  nlohmann::json Message(std::size_t i) const { return nlohmann::json::parse(sent.at(i)); }
  nlohmann::json Last() const { return nlohmann::json::parse(sent.back()); }
  // Forgets what was sent so far.
  void Clear() { sent.clear(); }

  std::vector<std::string> sent;
  bool closed = false;
  int close_code = 0;
  std::string close_reason;
  std::optional<std::chrono::milliseconds> timer;
  std::vector<OperationLog> logged;  // the operation lines, in order
};

// A context the fake backend hands out, remembering the credentials it was made for.
class FakeContext : public graphql::RequestContext {
 public:
  explicit FakeContext(std::string presented) : authorization(std::move(presented)) {}
  std::string authorization;
};

class FakeBackend : public Backend {
 public:
  // Refuses `refused_token`, and a token of `expiry` from its time on (as the real verifier refuses
  // one past exp plus leeway).
  Authentication Authenticate(std::string_view authorization) override {
    authorizations.emplace_back(authorization);
    if (!refused_token.empty() && authorization == refused_token) return {};
    Authentication authentication;
    auto expires = expiry.find(std::string(authorization));
    if (expires != expiry.end()) {
      if (now >= expires->second) return {};
      authentication.remaining =
          std::chrono::duration_cast<std::chrono::milliseconds>(expires->second - now);
    }
    authentication.context = std::make_unique<FakeContext>(std::string(authorization));
    return authentication;
  }
  std::chrono::steady_clock::time_point Now() override { return now; }
  StartResult Start(Subscriber& subscriber, const std::string& id, const OperationRequest& request,
                    graphql::RequestContext* context) override {
    std::optional<std::string> authorization;
    if (context != nullptr) authorization = static_cast<FakeContext*>(context)->authorization;
    started.push_back({&subscriber, id, request.query, request.operation_name, request.variables,
                       std::move(authorization)});
    auto planned = results.find(request.query);
    if (planned != results.end()) return planned->second;
    return {StartResult::Kind::kSubscribed, {}};
  }
  void Stop(Subscriber&, const std::string& id) override { stopped.push_back(id); }
  void StopAll(Subscriber&) override { ++stop_all_calls; }

  struct Started {
    Subscriber* subscriber;
    std::string id;
    std::string query;
    std::optional<std::string> operation_name;
    nlohmann::json variables;
    std::optional<std::string> authorization;  // of the context it ran with; unset without one
  };

  std::chrono::steady_clock::time_point now;  // what Now() says; tests move it on
  std::string refused_token;                  // Authenticate refuses exactly this value
  // Authorization values that expire, with the instant they stop being accepted.
  std::map<std::string, std::chrono::steady_clock::time_point> expiry;
  std::map<std::string, StartResult> results;  // by query text; default: a subscription
  std::vector<std::string> authorizations;
  std::vector<Started> started;
  std::vector<std::string> stopped;
  int stop_all_calls = 0;
};

inline SharedText Shared(std::string text) {
  return std::make_shared<const std::string>(std::move(text));
}

}  // namespace netgraph::ws::testing

#endif  // NETGRAPH_TESTS_UNIT_WS_FAKES_H_
