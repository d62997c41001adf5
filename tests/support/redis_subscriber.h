// A subscriber to one Redis channel, for the C++ tests that watch what is published (the outbox
// relay's updates, a Sentinel failover): the one such helper they share.
#ifndef NETGRAPH_TESTS_SUPPORT_REDIS_SUBSCRIBER_H_
#define NETGRAPH_TESTS_SUPPORT_REDIS_SUBSCRIBER_H_

#include <hiredis/hiredis.h>

#include <string>

namespace netgraph::testing {

class RedisSubscriber {
 public:
  // Takes `context` (from redisConnect or redisConnectUnix), logs in with `password` unless it is
  // empty, and subscribes to `channel`.
  RedisSubscriber(redisContext* context, const char* channel, const std::string& password = "")
      : context_(context) {
    if (!password.empty()) freeReplyObject(redisCommand(context_, "AUTH %s", password.c_str()));
    freeReplyObject(redisCommand(context_, "SUBSCRIBE %s", channel));
    timeval timeout{5, 0};
    redisSetTimeout(context_, timeout);
  }
  ~RedisSubscriber() { redisFree(context_); }
  RedisSubscriber(const RedisSubscriber&) = delete;
  RedisSubscriber& operator=(const RedisSubscriber&) = delete;

  // The next message's payload; "" after 5 s without one.
  std::string Next() {
    void* raw = nullptr;
    if (redisGetReply(context_, &raw) != REDIS_OK || raw == nullptr) return "";
    auto* reply = static_cast<redisReply*>(raw);
    std::string payload = reply->type == REDIS_REPLY_ARRAY && reply->elements == 3
                              ? std::string(reply->element[2]->str, reply->element[2]->len)
                              : "";
    freeReplyObject(reply);
    return payload;
  }

 private:
  redisContext* context_;
};

}  // namespace netgraph::testing

#endif  // NETGRAPH_TESTS_SUPPORT_REDIS_SUBSCRIBER_H_
