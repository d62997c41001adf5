#include "core/store/redis.h"

#include "core/log.h"
#include "core/store/redis_sentinel.h"
#include "core/telemetry.h"

#include <hiredis/hiredis.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

namespace netgraph::store {

void RedisReplyDeleter::operator()(redisReply* reply) const { freeReplyObject(reply); }

namespace {

const telemetry::Counter kRedisErrors({"netgraph_redis_errors_total",
                                       telemetry::MetricType::kCounter,
                                       "Failed Redis commands and connection attempts.", ""});
const telemetry::Counter kRedisConnects({"netgraph_redis_connects_total",
                                         telemetry::MetricType::kCounter,
                                         "Redis connections opened (first ones and reconnects).",
                                         ""});

// Userinfo in a URL may carry any byte as %XX (RFC 3986 §2.1); '+' is itself, not a space.
Result<std::string> PercentDecode(std::string_view text) {
  std::string decoded;
  decoded.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      decoded.push_back(text[i]);
      continue;
    }
    std::uint8_t byte = 0;
    if (i + 2 >= text.size()) {
      return Status::InvalidArgument("a '%' must be followed by two hex digits");
    }
    for (char c : text.substr(i + 1, 2)) {
      int digit = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
      if (digit < 0) return Status::InvalidArgument("a '%' must be followed by two hex digits");
      byte = static_cast<std::uint8_t>(byte << 4 | digit);
    }
    decoded.push_back(static_cast<char>(byte));
    i += 2;
  }
  return decoded;
}

// A decimal integer in [min, max], or nullopt.
std::optional<long> DecimalIn(std::string_view text, long min, long max) {
  if (text.empty() || text.size() > 10 ||
      text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  long value = std::strtol(std::string(text).c_str(), nullptr, 10);
  if (value < min || value > max) return std::nullopt;
  return value;
}

// The code of an error reply: its first word. The protocol defines it so (RESP: an error's first
// word, up to a space or newline, is its kind, as ERR, WRONGTYPE, READONLY), for clients to act on;
// the rest is the server's text for people, and is never looked at.
std::string_view ErrorCode(const redisReply& reply) {
  const std::string_view error(reply.str, reply.len);
  return error.substr(0, error.find_first_of(" \r\n"));
}

}  // namespace

Result<RedisAddress> RedisAddress::Parse(std::string_view url) {
  RedisAddress address;
  constexpr std::string_view kUnix = "unix://";
  constexpr std::string_view kTcp = "redis://";
  constexpr std::string_view kTls = "rediss://";
  // The URL may hold a password: errors show the scheme and what is wrong, not the URL. The caller
  // names the setting (WithContext).
  auto bad = [](const std::string& what) { return Status::InvalidArgument(what); };
  if (url.substr(0, kUnix.size()) == kUnix) {
    address.socket_path = std::string(url.substr(kUnix.size()));
    if (address.socket_path.empty() || address.socket_path[0] != '/') {
      return bad("a unix socket URL needs an absolute path: " + std::string(url));
    }
    return address;
  }
  if (url.substr(0, kTls.size()) == kTls) {
    return bad(
        "rediss:// (TLS) is not supported: this build's hiredis (0.14) has no TLS; reach a "
        "TLS-only Redis through a local TLS tunnel (docs/operations.md, \"Redis\")");
  }
  if (url.substr(0, kTcp.size()) != kTcp) {
    return bad("must start with redis:// or unix://");
  }
  std::string_view rest = url.substr(kTcp.size());
  if (rest.find_first_of("?#") != std::string_view::npos) {
    return bad("query parameters and fragments are not supported");
  }
  std::string_view path;
  if (std::size_t slash = rest.find('/'); slash != std::string_view::npos) {
    path = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
  }
  if (std::size_t at = rest.rfind('@'); at != std::string_view::npos) {
    std::string_view userinfo = rest.substr(0, at);
    rest = rest.substr(at + 1);
    std::size_t colon = userinfo.find(':');
    if (colon == std::string_view::npos) {
      return bad("put the password after a colon: redis://[user]:password@host:port/db");
    }
    Result<std::string> username = PercentDecode(userinfo.substr(0, colon));
    Result<std::string> password = PercentDecode(userinfo.substr(colon + 1));
    if (!username.ok()) return bad("the user name: " + username.status().message());
    if (!password.ok()) return bad("the password: " + password.status().message());
    if (password->empty()) return bad("the password after the colon is empty");
    address.username = std::move(username.value());
    address.password = std::move(password.value());
  }
  std::string_view host = rest;
  std::string_view port;
  if (!rest.empty() && rest.front() == '[') {  // an IPv6 literal
    std::size_t close = rest.find(']');
    if (close == std::string_view::npos) return bad("an IPv6 address lacks its ']'");
    host = rest.substr(1, close - 1);
    std::string_view after = rest.substr(close + 1);
    if (!after.empty() && after.front() != ':') return bad("unexpected text after the host");
    if (!after.empty()) port = after.substr(1);
    if (after == ":") return bad("the port is empty");
  } else if (std::size_t colon = rest.rfind(':'); colon != std::string_view::npos) {
    host = rest.substr(0, colon);
    port = rest.substr(colon + 1);
    if (port.empty()) return bad("the port is empty");
  }
  if (!port.empty()) {
    std::optional<long> number = DecimalIn(port, 1, 65535);
    if (!number) return bad("bad port '" + std::string(port) + "'");
    address.port = static_cast<int>(*number);
  }
  address.host = host.empty() ? "127.0.0.1" : std::string(host);
  if (!path.empty()) {
    std::optional<long> database = DecimalIn(path, 0, std::numeric_limits<int>::max());
    if (!database)
      return bad("the database after '/' must be a number, not '" + std::string(path) + "'");
    address.database = static_cast<int>(*database);
  }
  return address;
}

std::string RedisAddress::Describe() const {
  if (!socket_path.empty()) return socket_path;
  std::string where = username.empty() ? "" : username + "@";
  where += host.find(':') == std::string::npos ? host : "[" + host + "]";
  where += ":" + std::to_string(port);
  if (database != 0) where += "/" + std::to_string(database);
  return where;
}

std::vector<std::vector<std::string>> LoginCommands(const RedisAddress& address) {
  std::vector<std::vector<std::string>> commands;
  if (!address.password.empty()) {
    if (address.username.empty()) {
      commands.push_back({"AUTH", address.password});
    } else {
      commands.push_back({"AUTH", address.username, address.password});
    }
  }
  if (address.database != 0) commands.push_back({"SELECT", std::to_string(address.database)});
  return commands;
}

RedisClient::RedisClient(RedisAddress address, int timeout_ms)
    : address_(std::move(address)), timeout_ms_(timeout_ms) {}

RedisClient::RedisClient(RedisAddress address, int timeout_ms, const RedisSentinels& sentinels)
    : RedisClient(std::move(address), timeout_ms) {
  if (sentinels.enabled()) {
    locator_ = std::make_unique<MasterLocator>(sentinels, address_, timeout_ms_);
  }
}

RedisClient::~RedisClient() { Disconnect(); }

void RedisClient::Disconnect() {
  if (context_ != nullptr) redisFree(context_);
  context_ = nullptr;
}

Status RedisClient::EnsureConnected() {
  if (context_ != nullptr && context_->err == 0) return Status::Ok();
  Disconnect();
  if (locator_ != nullptr) {
    NETGRAPH_ASSIGN_OR_RETURN(RedisAddress master, locator_->Locate());
    if (master.Describe() != master_) {
      log::Info("Redis: the sentinels name " + master.Describe() + " as the " +
                locator_->sentinels().Describe());
      master_ = master.Describe();
    }
    address_ = std::move(master);
  }
  timeval timeout{timeout_ms_ / 1000, (timeout_ms_ % 1000) * 1000};
  context_ = address_.socket_path.empty()
                 ? redisConnectWithTimeout(address_.host.c_str(), address_.port, timeout)
                 : redisConnectUnixWithTimeout(address_.socket_path.c_str(), timeout);
  if (context_ == nullptr) return Status::Internal("Redis: out of memory");
  if (context_->err != 0) {
    kRedisErrors.Add();
    std::string message = std::string("Redis connection failed: ") + context_->errstr;
    Disconnect();
    return Status::Unavailable(message);
  }
  redisSetTimeout(context_, timeout);
  for (const std::vector<std::string>& command : LoginCommands(address_)) {
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const std::string& argument : command) {
      argv.push_back(argument.data());
      lengths.push_back(argument.size());
    }
    RedisReply reply(static_cast<redisReply*>(
        redisCommandArgv(context_, static_cast<int>(argv.size()), argv.data(), lengths.data())));
    std::string problem = !reply                             ? context_->errstr
                          : reply->type == REDIS_REPLY_ERROR ? reply->str
                                                             : "";
    if (!problem.empty()) {
      kRedisErrors.Add();
      Disconnect();
      return Status::Unavailable("Redis at " + address_.Describe() + ": " + command.front() +
                                 " failed: " + problem);
    }
  }
  kRedisConnects.Add();
  return Status::Ok();
}

Status RedisClient::Ping() {
  Result<std::int64_t> reply =
      Command([this] { return static_cast<redisReply*>(redisCommand(context_, "PING")); }, "PING");
  return reply.ok() ? Status::Ok() : reply.status();
}

Result<std::int64_t> RedisClient::Publish(std::string_view channel, std::string_view message) {
  return Command(
      [&] {
        return static_cast<redisReply*>(redisCommand(context_, "PUBLISH %b %b", channel.data(),
                                                     channel.size(), message.data(),
                                                     message.size()));
      },
      "PUBLISH");
}

Result<RedisReply> RedisClient::Call(const std::vector<std::string>& arguments) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  for (const std::string& argument : arguments) {
    argv.push_back(argument.data());
    lengths.push_back(argument.size());
  }
  return Send(
      [&] {
        return static_cast<redisReply*>(
            redisCommandArgv(context_, static_cast<int>(argv.size()), argv.data(), lengths.data()));
      },
      arguments.empty() ? "" : arguments.front().c_str());
}

Result<std::optional<std::string>> RedisClient::Get(std::string_view key) {
  NETGRAPH_ASSIGN_OR_RETURN(RedisReply reply,
                            Send(
                                [&] {
                                  return static_cast<redisReply*>(
                                      redisCommand(context_, "GET %b", key.data(), key.size()));
                                },
                                "GET"));
  if (reply->type == REDIS_REPLY_ERROR) {
    kRedisErrors.Add();
    return Status::Internal(std::string("Redis: ") + reply->str);
  }
  if (reply->type != REDIS_REPLY_STRING) return std::optional<std::string>();
  return std::optional<std::string>(std::string(reply->str, reply->len));
}

Status RedisClient::Set(std::string_view key, std::string_view value) {
  Result<std::int64_t> reply = Command(
      [&] {
        return static_cast<redisReply*>(redisCommand(context_, "SET %b %b", key.data(), key.size(),
                                                     value.data(), value.size()));
      },
      "SET");
  return reply.ok() ? Status::Ok() : reply.status();
}

Result<RedisReply> RedisClient::Send(const std::function<redisReply*()>& send, const char* name) {
  // A connection that broke since the last command (Redis restarted) fails only now: such a
  // failure is retried once on a fresh connection. So is a command a demoted master refused
  // (READONLY), after which the sentinels are asked again.
  for (int attempt = 1;; ++attempt) {
    const bool was_connected = context_ != nullptr;
    NETGRAPH_RETURN_IF_ERROR(EnsureConnected());
    RedisReply reply(send());
    if (!reply) {
      kRedisErrors.Add();
      std::string error = std::string("Redis ") + name + " failed: " + context_->errstr;
      Disconnect();
      if (was_connected && attempt == 1) continue;
      return Status::Unavailable(error);
    }
    if (locator_ != nullptr && reply->type == REDIS_REPLY_ERROR &&
        ErrorCode(*reply) == "READONLY") {
      kRedisErrors.Add();
      Disconnect();
      if (attempt == 1) continue;
      return Status::Unavailable(std::string("Redis ") + name + ": " + reply->str);
    }
    return reply;
  }
}

Result<std::int64_t> RedisClient::Command(const std::function<redisReply*()>& send,
                                          const char* name) {
  NETGRAPH_ASSIGN_OR_RETURN(RedisReply reply, Send(send, name));
  if (reply->type == REDIS_REPLY_ERROR) {
    kRedisErrors.Add();
    return Status::Internal(std::string("Redis: ") + reply->str);
  }
  return reply->type == REDIS_REPLY_INTEGER ? static_cast<std::int64_t>(reply->integer) : 0;
}

}  // namespace netgraph::store
