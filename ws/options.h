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

// How much a connection may have waiting to be written. A client that falls further behind is
// closed (a slow consumer) rather than allowed to grow the process's memory.
struct QueueLimits {
  std::size_t max_messages = 512;
  std::size_t max_bytes = 4 * 1024 * 1024;
};

// What the subscriptions of netgraph-ws may hold, in the bytes their parsed documents really take
// (PreparedDocument::held_bytes) plus their key texts, not in text bytes: a document's tree is
// many times its text. Each subscription of a connection counts its document in full, shared or
// not; the process total counts each distinct document once.
struct MemoryLimits {
  std::size_t per_connection = 2 * 1024 * 1024;
  std::size_t per_address = 8 * 1024 * 1024;
  std::size_t process = 32 * 1024 * 1024;
  std::size_t documents = 2000;  // distinct subscription documents in the process
};

// What a client holds in one part of netgraph-ws, counted with what it holds in the other against
// the same MemoryLimits: the hub's subscriptions (ws/hub.h) and the requests of operations waiting
// for a database thread (ws/operation_queue.h).
struct HeldBytes {
  std::size_t connection = 0;
  std::size_t address = 0;
  std::size_t process = 0;
};

// How many queries and mutations may wait for, or run on, the database threads
// (ws/operation_queue.h). Per connection the bound is Options::max_operations.
struct OperationLimits {
  std::size_t process = 1024;
  std::size_t per_address = 128;
};

struct Options {
  std::string listen = "/run/netgraph/ws.sock";  // unix socket path or host:port
  int listen_backlog = 1024;
  std::size_t max_connections = 10000;
  std::size_t max_operations = 100;  // running subscriptions per connection
  // The operation rate of one connection (a token bucket, see TokenBucket in ws/session.h):
  // subscribe/start messages a second, and how many may come at once.
  std::size_t operations_per_second = 20;
  std::size_t operations_burst = 100;
  std::size_t max_message_bytes = 256 * 1024;  // one incoming message, all fragments together
  QueueLimits queue;
  std::chrono::milliseconds init_timeout{3000};       // connection_init must arrive within this
  std::chrono::milliseconds legacy_keepalive{12000};  // "ka" interval of the legacy protocol
  // libwebsockets counts both in whole seconds: the server rounds them up.
  std::chrono::milliseconds ping_interval{30000};    // WebSocket pings on an idle connection
  std::chrono::milliseconds pong_timeout{30000};     // hang up when no pong came this long after
  std::chrono::milliseconds shutdown_timeout{3000};  // time clients get to close on SIGTERM
  std::vector<std::string> allowed_origins;          // empty: any Origin
  std::chrono::milliseconds redis_retry_min{100};    // Redis reconnection back-off bounds
  std::chrono::milliseconds redis_retry_max{5000};
  // Threads that run queries and mutations sent over sockets, each with its own PostgreSQL
  // connection, so that a slow statement never holds up the event loop (ws/database_workers.h).
  std::size_t database_threads = 4;
  // What may wait for them, and what an operation past a bound gets: ws/operation_queue.h.
  OperationLimits queued_operations;

  // Bounds on what one client can take (ws-mem): memory, connections per client address, and how
  // long a connection with no token and no subscription may stay.
  MemoryLimits memory;
  std::size_t max_connections_per_address = 256;
  std::chrono::milliseconds idle_anonymous_timeout{60000};
  // Peers whose X-Real-IP header names the client (besides unix-socket peers, which are nginx).
  std::vector<std::string> trusted_proxies{"127.0.0.1", "::1"};

  // Reads the variables; a malformed one is recorded in `env` (check env.status()).
  static Options FromEnvironment(config::Environment& env);
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_OPTIONS_H_
