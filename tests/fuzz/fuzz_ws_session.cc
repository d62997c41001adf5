// The WebSocket protocol state machines (ws/session.h): a connection of either subprotocol fed an
// arbitrary sequence of client messages, timer expiries and subscription results, with the test
// doubles of tests/unit/ws/fakes.h in place of libwebsockets and the GraphQL backend.
//
// Input: a first byte of flags (bit 0: the legacy protocol; bit 1: an Authorization header on the
// upgrade), then events separated by NUL bytes: "\x01<n>" moves the clock n × 100 ms on and fires
// the timer; "\x02" delivers a result to every running subscription; anything else is one client
// message. Tokens the fake backend knows: "Bearer bad" is refused, "Bearer short" expires after
// 2 s, any other is accepted.
//
// Checked after every event: everything sent is a JSON object with a string "type"; nothing is sent
// once the connection is closed; a close code is one of ws/session.h's; no more subscriptions run
// than the limit allows, and each running one was started and not stopped.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "tests/unit/ws/fakes.h"
#include "ws/session.h"

namespace {

using netgraph::ws::Options;
using netgraph::ws::Session;
using netgraph::ws::Subprotocol;
using netgraph::ws::testing::FakeBackend;
using netgraph::ws::testing::FakePeer;
using netgraph::ws::testing::Shared;
namespace close_code = netgraph::ws::close_code;

[[noreturn]] void Fail(const std::string& what, const std::string& detail) {
  std::cerr << what << "\n" << detail << "\n";
  std::abort();
}

bool DocumentedCloseCode(int code) {
  for (int documented :
       {close_code::kNormal, close_code::kGoingAway, close_code::kMessageTooBig,
        close_code::kTryAgainLater, close_code::kBadRequest, close_code::kUnauthorized,
        close_code::kForbidden, close_code::kSubprotocolNotAcceptable, close_code::kInitTimeout,
        close_code::kSubscriberExists, close_code::kTooManyOperations, close_code::kInternalError,
        close_code::kSlowConsumer}) {
    if (code == documented) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const bool legacy = (data[0] & 1) != 0;
  const std::string upgrade_authorization = (data[0] & 2) != 0 ? "Bearer short" : "";

  Options options;
  options.max_operations = 4;
  options.operations_burst = 8;
  options.operations_per_second = 4;
  FakePeer peer;
  FakeBackend backend;
  backend.now = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
  backend.refused_token = "Bearer bad";
  backend.expiry["Bearer short"] = backend.now + std::chrono::seconds(2);
  std::unique_ptr<Session> session =
      Session::Create(legacy ? Subprotocol::kGraphqlWs : Subprotocol::kGraphqlTransportWs, peer,
                      backend, options, upgrade_authorization);
  session->Open();

  std::size_t checked = 0;  // messages of `peer.sent` already checked
  std::string_view rest = input.substr(1);
  while (true) {
    const std::size_t end = rest.find('\0');
    const std::string_view event = rest.substr(0, end);
    const bool was_closed = peer.closed;
    const std::size_t sent_before = peer.sent.size();
    if (!event.empty() && event[0] == '\x01') {
      const int steps = event.size() > 1 ? static_cast<unsigned char>(event[1]) : 1;
      backend.now += std::chrono::milliseconds(100) * steps;
      session->OnTimer();
    } else if (event == "\x02") {
      const std::set<std::string> running = session->running();
      for (const std::string& id : running) session->OnNext(id, Shared(R"({"data":{"n":1}})"));
    } else {
      session->OnMessage(event);
    }

    if (was_closed && peer.sent.size() != sent_before) Fail("sent after close", std::string(event));
    for (; checked < peer.sent.size(); ++checked) {
      nlohmann::json message =
          nlohmann::json::parse(peer.sent[checked], nullptr, /*allow_exceptions=*/false);
      if (!message.is_object() || !message.contains("type") || !message["type"].is_string()) {
        Fail("a message that is not a typed JSON object", peer.sent[checked]);
      }
    }
    if (peer.closed && !DocumentedCloseCode(peer.close_code)) {
      Fail("an undocumented close code", std::to_string(peer.close_code));
    }
    if (session->running().size() > options.max_operations) {
      Fail("more subscriptions than the limit", std::to_string(session->running().size()));
    }
    for (const std::string& id : session->running()) {
      const bool started = std::any_of(backend.started.begin(), backend.started.end(),
                                       [&](const auto& s) { return s.id == id; });
      if (!started) Fail("a running subscription the backend never started", id);
    }
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  session->OnClosed();
  return 0;
}
