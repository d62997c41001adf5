// When a connection is pinged and when it is hung up: a WebSocket ping once `ping_interval` passed
// without a pong (or since the connection opened), and a hang-up once the ping went `pong_timeout`
// unanswered. The pings keep idle sockets alive through proxies (nginx's
// proxy_read_timeout) and find peers that went away without a word.
//
// netgraph-ws keeps this clock itself, per connection, and the server checks every connection's
// once a second, rather than leaving it to libwebsockets' retry_and_idle_policy: libwebsockets 4.1
// keeps its timers in one sorted list, and each ping and each pong re-inserts the connection's
// timer by walking that list from its start (lib/core-net/sorted-usec-list.c), so every ping round
// at 10,000 connections cost seconds of CPU and held every delivery back (docs/benchmarks.md,
// "WebSocket fan-out").
#ifndef NETGRAPH_WS_KEEPALIVE_H_
#define NETGRAPH_WS_KEEPALIVE_H_

#include <chrono>

namespace netgraph::ws {

class Keepalive {
 public:
  using Clock = std::chrono::steady_clock;

  enum class Due {
    kNothing,
    kPing,    // send a ping now (once per round)
    kHangUp,  // the ping went unanswered: close the connection
  };

  Keepalive(Clock::time_point opened_at, std::chrono::milliseconds ping_interval,
            std::chrono::milliseconds pong_timeout)
      : confirmed_at_(opened_at), ping_interval_(ping_interval), pong_timeout_(pong_timeout) {}

  // What is due at `now`; kPing is answered once until the next pong, and the pong timeout counts
  // from then (the caller sends the ping at once).
  Due Check(Clock::time_point now);
  // A pong arrived at `now`: the next ping is due ping_interval after it.
  void Confirmed(Clock::time_point now);

 private:
  Clock::time_point confirmed_at_;
  std::chrono::milliseconds ping_interval_;
  std::chrono::milliseconds pong_timeout_;
  bool pinged_ = false;
  Clock::time_point pinged_at_;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_KEEPALIVE_H_
