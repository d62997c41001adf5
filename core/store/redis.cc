#include "core/store/redis.h"

#include <hiredis/hiredis.h>

#include <cstdlib>
#include <memory>
#include <utility>

namespace netgraph::store {
namespace {

struct ReplyDeleter {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

}  // namespace

Result<RedisAddress> RedisAddress::Parse(std::string_view url) {
  RedisAddress address;
  constexpr std::string_view kUnix = "unix://";
  constexpr std::string_view kTcp = "redis://";
  if (url.substr(0, kUnix.size()) == kUnix) {
    address.socket_path = std::string(url.substr(kUnix.size()));
    if (address.socket_path.empty() || address.socket_path[0] != '/') {
      return Status::Error("REDIS_URL: a unix socket URL needs an absolute path: " + std::string(url));
    }
    return address;
  }
  if (url.substr(0, kTcp.size()) != kTcp) {
    return Status::Error("REDIS_URL must start with redis:// or unix://, not: " + std::string(url));
  }
  std::string_view rest = url.substr(kTcp.size());
  if (std::size_t slash = rest.find('/'); slash != std::string_view::npos) rest = rest.substr(0, slash);
  if (std::size_t colon = rest.rfind(':'); colon != std::string_view::npos) {
    std::string port(rest.substr(colon + 1));
    char* end = nullptr;
    long parsed = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != '\0' || parsed < 1 || parsed > 65535) {
      return Status::Error("REDIS_URL has a bad port: " + std::string(url));
    }
    address.port = static_cast<int>(parsed);
    rest = rest.substr(0, colon);
  }
  address.host = rest.empty() ? "127.0.0.1" : std::string(rest);
  return address;
}

RedisClient::RedisClient(RedisAddress address, int timeout_ms)
    : address_(std::move(address)), timeout_ms_(timeout_ms) {}

RedisClient::~RedisClient() { Disconnect(); }

void RedisClient::Disconnect() {
  if (context_ != nullptr) redisFree(context_);
  context_ = nullptr;
}

Status RedisClient::EnsureConnected() {
  if (context_ != nullptr && context_->err == 0) return Status::Ok();
  Disconnect();
  timeval timeout{timeout_ms_ / 1000, (timeout_ms_ % 1000) * 1000};
  context_ = address_.socket_path.empty()
                 ? redisConnectWithTimeout(address_.host.c_str(), address_.port, timeout)
                 : redisConnectUnixWithTimeout(address_.socket_path.c_str(), timeout);
  if (context_ == nullptr) return Status::Error("Redis: out of memory");
  if (context_->err != 0) {
    std::string message = std::string("Redis connection failed: ") + context_->errstr;
    Disconnect();
    return Status::Error(message);
  }
  redisSetTimeout(context_, timeout);
  return Status::Ok();
}

Status RedisClient::Ping() {
  Result<std::int64_t> reply = Command([this] {
    return static_cast<redisReply*>(redisCommand(context_, "PING"));
  }, "PING");
  return reply.ok() ? Status::Ok() : reply.status();
}

Result<std::int64_t> RedisClient::Publish(std::string_view channel, std::string_view message) {
  return Command([&] {
    return static_cast<redisReply*>(redisCommand(context_, "PUBLISH %b %b", channel.data(),
                                                 channel.size(), message.data(), message.size()));
  }, "PUBLISH");
}

Result<std::int64_t> RedisClient::Command(const std::function<redisReply*()>& send,
                                          const char* name) {
  // A connection that broke since the last command (Redis restarted) fails only now: such a
  // failure is retried once on a fresh connection.
  for (int attempt = 1;; ++attempt) {
    const bool was_connected = context_ != nullptr;
    if (Status s = EnsureConnected(); !s.ok()) return s;
    Reply reply(send());
    if (!reply) {
      std::string error = std::string("Redis ") + name + " failed: " + context_->errstr;
      Disconnect();
      if (was_connected && attempt == 1) continue;
      return Status::Error(error);
    }
    if (reply->type == REDIS_REPLY_ERROR) return Status::Error(std::string("Redis: ") + reply->str);
    return reply->type == REDIS_REPLY_INTEGER ? static_cast<std::int64_t>(reply->integer) : 0;
  }
}

}  // namespace netgraph::store
