// The process's one Redis connection for pub/sub: hiredis's asynchronous API attached to the
// process's libuv loop (one thread for everything, ws/main.cc). It subscribes to the channels it is
// asked to listen to; when the connection fails or is lost it reconnects after a back-off with
// jitter and subscribes to them all again. Each connection first logs in (AUTH, SELECT) as
// REDIS_URL says; a refused login is logged and retried like a lost connection. Redis does not
// replay what was published while it was away, so each subscription is reported (ws/update_feed.h).
// With sentinels (NETGRAPH_REDIS_SENTINELS), every connection first asks them where the master is
// (store::MasterLocator, on libuv's thread pool: a sentinel that does not answer never holds up the
// loop), so a reconnection after a failover finds the new master. A master the sentinels demote
// has its clients disconnected by them (CLIENT KILL), which is such a reconnection.
//
// hiredis 0.14 has no PING on a subscribed connection and no read timeout; TCP keep-alive finds a
// dead peer, and a restarted Redis closes the socket (EOF), which is noticed at once.
#ifndef NETGRAPH_WS_REDIS_SUBSCRIBER_H_
#define NETGRAPH_WS_REDIS_SUBSCRIBER_H_

#include <uv.h>

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "core/store/redis.h"
#include "core/store/redis_sentinel.h"
#include "ws/backoff.h"

struct redisAsyncContext;

namespace netgraph::ws {

class RedisSubscriber {
 public:
  struct Handlers {
    // A message published on `channel`.
    std::function<void(std::string_view channel, std::string_view payload)> message;
    // The subscription is in place: the first time, or again after the connection was lost.
    std::function<void()> subscribed;
  };

  // `sentinels` disabled: `address` is the server; enabled: `address` gives the login only.
  RedisSubscriber(uv_loop_t* loop, store::RedisAddress address, store::RedisSentinels sentinels,
                  Backoff backoff, Handlers handlers);
  ~RedisSubscriber();
  RedisSubscriber(const RedisSubscriber&) = delete;
  RedisSubscriber& operator=(const RedisSubscriber&) = delete;

  // Connects (and keeps reconnecting until Stop).
  void Start();
  // Adds `channel` to the subscription: at once when connected, otherwise on connection.
  void Listen(const std::string& channel);
  // Disconnects for good. The loop ends once hiredis has closed its handle.
  void Stop();

 private:
  static void OnConnect(const redisAsyncContext* context, int status);
  static void OnDisconnect(const redisAsyncContext* context, int status);
  static void OnReply(redisAsyncContext* context, void* reply, void* self);
  // The reply to a login command (store::LoginCommands).
  static void OnLoginReply(redisAsyncContext* context, void* reply, void* unused);
  // Asks the sentinels (when there are some), then connects.
  void Connect();
  void ConnectTo(const store::RedisAddress& address);
  void Subscribe(const std::string& channel);
  void Retry(const std::string& why);
  std::string Where() const;

  uv_loop_t* loop_;
  store::RedisAddress address_;  // where it connects: REDIS_URL, or the master the sentinels named
  std::unique_ptr<store::MasterLocator> locator_;  // null without sentinels
  struct Lookup;
  Lookup* lookup_ = nullptr;  // the sentinel lookup under way on the thread pool, if any
  bool located_ = false;      // address_ is what the sentinels said last
  Backoff backoff_;
  Handlers handlers_;
  std::set<std::string> channels_;
  redisAsyncContext* context_ = nullptr;  // hiredis frees it after the disconnect callback
  uv_timer_t* retry_timer_ = nullptr;     // heap: libuv closes it asynchronously
  bool connected_ = false;
  bool subscribed_ = false;
  bool stopping_ = false;
  std::string login_error_;  // why logging in on the current connection failed, if it did
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_REDIS_SUBSCRIBER_H_
