// netgraph-ws's settings. Every one comes from a NETGRAPH_WS_* environment variable; the table of
// names, defaults and meanings is in ws/README.md (and docs/operations.md).
#ifndef NETGRAPH_WS_OPTIONS_H_
#define NETGRAPH_WS_OPTIONS_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "core/config/environment.h"

namespace netgraph::ws {

// The Redis channel graph updates are published on (design §4, "Live updates"). The process
// subscribes to it at start, and to any other channel a subscription's source stream names.
inline constexpr char kGraphChannel[] = "netgraph:graph";

// How much a connection may have waiting to be written. A client that falls further behind is
// closed (a slow consumer) rather than allowed to grow the process's memory.
struct QueueLimits {
  std::size_t max_messages = 512;
  std::size_t max_bytes = 4 * 1024 * 1024;
};

struct Options {
  std::string listen = "/run/netgraph/ws.sock";  // unix socket path or host:port
  int listen_backlog = 1024;
  std::size_t max_connections = 10000;
  std::size_t max_operations = 100;            // running subscriptions per connection
  // The operation rate of one connection (a token bucket, see TokenBucket in ws/session.h):
  // subscribe/start messages a second, and how many may come at once.
  std::size_t operations_per_second = 20;
  std::size_t operations_burst = 100;
  std::size_t max_message_bytes = 256 * 1024;  // one incoming message, all fragments together
  QueueLimits queue;
  std::chrono::milliseconds init_timeout{3000};       // connection_init must arrive within this
  std::chrono::milliseconds legacy_keepalive{12000};  // "ka" interval of the legacy protocol
  std::chrono::seconds ping_interval{30};             // WebSocket pings on an idle connection
  std::chrono::seconds pong_timeout{30};              // hang up when no pong came this long after
  std::chrono::milliseconds shutdown_timeout{3000};   // time clients get to close on SIGTERM
  std::vector<std::string> allowed_origins;           // empty: any Origin
  std::chrono::milliseconds redis_retry_min{100};     // Redis reconnection back-off bounds
  std::chrono::milliseconds redis_retry_max{5000};

  // Reads the variables; a malformed one is recorded in `env` (check env.status()).
  static Options FromEnvironment(config::Environment& env);
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_OPTIONS_H_
