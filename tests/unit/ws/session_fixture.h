// The fixture the ws session tests (legacy, transport, limits, operation log) share: a session of
// one protocol over the doubles of fakes.h, fed the client's messages. (fakes.h itself stays free
// of gtest: tests/fuzz/fuzz_ws_session.cc uses it.)
#ifndef NETGRAPH_TESTS_UNIT_WS_SESSION_FIXTURE_H_
#define NETGRAPH_TESTS_UNIT_WS_SESSION_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "tests/unit/ws/fakes.h"
#include "ws/session.h"

namespace netgraph::ws::testing {

// A session of one protocol over a FakePeer and a FakeBackend, for the session tests' fixtures:
// they set options_ and backend_, then Open.
class SessionFixture {
 protected:
  // Creates a session of `subprotocol` with options_ as they are now, and opens it (which arms the
  // initialisation timer).
  void Open(Subprotocol subprotocol, std::string upgrade_authorization = "") {
    subprotocol_ = subprotocol;
    session_ =
        Session::Create(subprotocol, peer_, backend_, options_, std::move(upgrade_authorization));
    session_->Open();
  }
  bool legacy() const { return subprotocol_ == Subprotocol::kGraphqlWs; }
  // One message from the client.
  void Receive(const std::string& text) { session_->OnMessage(text); }
  // connection_init with `authorization` in its payload; the session must stay open.
  void Initialise(const std::string& authorization) {
    Receive(R"({"type":"connection_init","payload":{"Authorization":")" + authorization + R"("}})");
    ASSERT_FALSE(peer_.closed);
  }
  // Starts operation `id` with `payload` ({query, ...}) the protocol's way: subscribe, or start in
  // the legacy protocol.
  void Start(const std::string& id, nlohmann::json payload) {
    Receive(nlohmann::json{
        {"type", legacy() ? "start" : "subscribe"}, {"id", id}, {"payload", std::move(payload)}}
                .dump());
  }

  Options options_;
  FakePeer peer_;
  FakeBackend backend_;
  std::unique_ptr<Session> session_;

 private:
  Subprotocol subprotocol_ = Subprotocol::kGraphqlTransportWs;
};

}  // namespace netgraph::ws::testing

#endif  // NETGRAPH_TESTS_UNIT_WS_SESSION_FIXTURE_H_
