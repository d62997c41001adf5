#include "ws/redis_subscriber.h"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>

#include <memory>
#include <utility>
#include <vector>

#include "core/log.h"
#include "ws/metrics.h"

namespace netgraph::ws {
namespace {

// hiredis's event hooks on libuv. hiredis 0.14.1's own adapter (adapters/libuv.h) ignores a poll
// error, and libuv reports a failed connect (POLLERR: Redis is down) as exactly that: the connect
// would then stay pending forever and nothing would retry. Here an error wakes whatever hiredis was
// waiting for, so that hiredis reads the socket's error and reports it.
struct UvEvents {
  redisAsyncContext* context;
  uv_poll_t handle;
  int events = 0;
};

void OnPoll(uv_poll_t* handle, int status, int events) {
  auto* watched = static_cast<UvEvents*>(handle->data);
  int ready = status < 0 ? watched->events : events;
  if (watched->context != nullptr && (ready & UV_READABLE) != 0) {
    redisAsyncHandleRead(watched->context);
  }
  // Reading may have ended the connection (Cleanup clears the context).
  if (watched->context != nullptr && (ready & UV_WRITABLE) != 0) {
    redisAsyncHandleWrite(watched->context);
  }
}

void Watch(void* data, int add, int remove) {
  auto* watched = static_cast<UvEvents*>(data);
  watched->events = (watched->events | add) & ~remove;
  if (watched->events != 0) {
    uv_poll_start(&watched->handle, watched->events, OnPoll);
  } else {
    uv_poll_stop(&watched->handle);
  }
}

bool AttachToLoop(redisAsyncContext* context, uv_loop_t* loop) {
  auto* watched = new UvEvents{context, {}, 0};
  if (uv_poll_init(loop, &watched->handle, context->c.fd) != 0) {
    delete watched;
    return false;
  }
  watched->handle.data = watched;
  context->ev.data = watched;
  context->ev.addRead = [](void* data) { Watch(data, UV_READABLE, 0); };
  context->ev.delRead = [](void* data) { Watch(data, 0, UV_READABLE); };
  context->ev.addWrite = [](void* data) { Watch(data, UV_WRITABLE, 0); };
  context->ev.delWrite = [](void* data) { Watch(data, 0, UV_WRITABLE); };
  context->ev.cleanup = [](void* data) {
    auto* ending = static_cast<UvEvents*>(data);
    ending->context = nullptr;  // hiredis frees the context after this
    uv_close(reinterpret_cast<uv_handle_t*>(&ending->handle),
             [](uv_handle_t* closed) { delete static_cast<UvEvents*>(closed->data); });
  };
  return true;
}

}  // namespace

// A sentinel lookup on libuv's thread pool: Locate runs there, the answer is used on the loop.
struct RedisSubscriber::Lookup {
  uv_work_t request{};
  RedisSubscriber* subscriber;
  Result<store::RedisAddress> master = Status::Unavailable("the sentinels were not asked");
};

RedisSubscriber::RedisSubscriber(uv_loop_t* loop, store::RedisAddress address,
                                 store::RedisSentinels sentinels, Backoff backoff,
                                 Handlers handlers)
    : loop_(loop),
      address_(std::move(address)),
      backoff_(std::move(backoff)),
      handlers_(std::move(handlers)) {
  if (sentinels.enabled()) {
    locator_ = std::make_unique<store::MasterLocator>(std::move(sentinels), address_,
                                                      store::kRedisTimeoutMs);
  }
}

RedisSubscriber::~RedisSubscriber() = default;

std::string RedisSubscriber::Where() const {
  return locator_ != nullptr && !located_ ? "the " + locator_->sentinels().Describe()
                                          : address_.Describe();
}

void RedisSubscriber::Start() {
  retry_timer_ = new uv_timer_t;
  uv_timer_init(loop_, retry_timer_);
  retry_timer_->data = this;
  Connect();
}

void RedisSubscriber::Listen(const std::string& channel) {
  if (!channels_.insert(channel).second) return;
  if (connected_) Subscribe(channel);
}

void RedisSubscriber::Stop() {
  stopping_ = true;
  if (retry_timer_ != nullptr) {
    uv_timer_stop(retry_timer_);
    uv_close(reinterpret_cast<uv_handle_t*>(retry_timer_),
             [](uv_handle_t* timer) { delete reinterpret_cast<uv_timer_t*>(timer); });
    retry_timer_ = nullptr;
  }
  // A lookup not yet started is dropped; one under way ends on its own and finds stopping_ set.
  if (lookup_ != nullptr) uv_cancel(reinterpret_cast<uv_req_t*>(&lookup_->request));
  // A user-requested disconnect: the disconnect callback reports REDIS_OK and nothing reconnects.
  if (context_ != nullptr) redisAsyncDisconnect(context_);
}

void RedisSubscriber::Connect() {
  if (locator_ == nullptr) return ConnectTo(address_);
  if (lookup_ != nullptr) return;
  lookup_ = new Lookup{};
  lookup_->subscriber = this;
  lookup_->request.data = lookup_;
  auto work = [](uv_work_t* request) {
    auto* lookup = static_cast<Lookup*>(request->data);
    lookup->master = lookup->subscriber->locator_->Locate();
  };
  auto done = [](uv_work_t* request, int status) {
    std::unique_ptr<Lookup> lookup(static_cast<Lookup*>(request->data));
    RedisSubscriber* self = lookup->subscriber;
    self->lookup_ = nullptr;
    if (status == UV_ECANCELED || self->stopping_) return;
    if (!lookup->master.ok()) {
      self->located_ = false;
      return self->Retry(lookup->master.status().message());
    }
    if (!self->located_ || lookup->master->Describe() != self->address_.Describe()) {
      log::Info("Redis: the sentinels name " + lookup->master->Describe() + " as the " +
                self->locator_->sentinels().Describe());
    }
    self->located_ = true;
    self->address_ = *std::move(lookup->master);
    self->ConnectTo(self->address_);
  };
  if (uv_queue_work(loop_, &lookup_->request, work, done) != 0) {
    delete std::exchange(lookup_, nullptr);
    Retry("cannot ask the sentinels (uv_queue_work failed)");
  }
}

void RedisSubscriber::ConnectTo(const store::RedisAddress& address) {
  redisAsyncContext* context = address.socket_path.empty()
                                   ? redisAsyncConnect(address.host.c_str(), address.port)
                                   : redisAsyncConnectUnix(address.socket_path.c_str());
  if (context == nullptr) return Retry("out of memory");
  if (context->err != 0) {
    std::string why = context->errstr;
    redisAsyncFree(context);
    return Retry(why);
  }
  if (!AttachToLoop(context, loop_)) {
    redisAsyncFree(context);
    return Retry("cannot attach to the event loop");
  }
  context->data = this;
  redisAsyncSetConnectCallback(context, &RedisSubscriber::OnConnect);
  redisAsyncSetDisconnectCallback(context, &RedisSubscriber::OnDisconnect);
  context_ = context;
}

void RedisSubscriber::OnConnect(const redisAsyncContext* context, int status) {
  auto* self = static_cast<RedisSubscriber*>(context->data);
  if (status != REDIS_OK) {
    // hiredis frees the context after this callback, and calls no disconnect callback.
    self->context_ = nullptr;
    if (!self->stopping_) self->Retry(context->errstr);
    return;
  }
  self->connected_ = true;
  WsMetrics().redis_connected = true;
  if (self->address_.socket_path.empty()) {
    redisEnableKeepAlive(const_cast<redisContext*>(&context->c));
  }
  // Replies come in order, so the subscriptions sent next run once logged in.
  self->login_error_.clear();
  for (const std::vector<std::string>& command : store::LoginCommands(self->address_)) {
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const std::string& argument : command) {
      argv.push_back(argument.data());
      lengths.push_back(argument.size());
    }
    redisAsyncCommandArgv(self->context_, &RedisSubscriber::OnLoginReply, nullptr,
                          static_cast<int>(argv.size()), argv.data(), lengths.data());
  }
  for (const std::string& channel : self->channels_) self->Subscribe(channel);
}

void RedisSubscriber::OnDisconnect(const redisAsyncContext* context, int status) {
  auto* self = static_cast<RedisSubscriber*>(context->data);
  self->context_ = nullptr;  // freed by hiredis once this returns
  self->connected_ = false;
  WsMetrics().redis_connected = false;
  self->subscribed_ = false;
  if (self->stopping_) return;
  if (!self->login_error_.empty()) return self->Retry(self->login_error_);
  if (status == REDIS_OK) return;
  self->Retry(std::string("connection lost: ") + context->errstr);
}

void RedisSubscriber::OnLoginReply(redisAsyncContext* context, void* reply_pointer, void*) {
  auto* reply = static_cast<redisReply*>(reply_pointer);
  if (reply == nullptr || reply->type != REDIS_REPLY_ERROR) return;
  auto* self = static_cast<RedisSubscriber*>(context->data);
  // A wrong password or database is a configuration mistake: report Redis's answer to the login
  // (WRONGPASS ..., ERR DB index is out of range), not the NOAUTH of the subscriptions after it.
  self->login_error_ = "logging in (AUTH/SELECT) failed: " + std::string(reply->str, reply->len);
  redisAsyncDisconnect(context);
}

void RedisSubscriber::Subscribe(const std::string& channel) {
  redisAsyncCommand(context_, &RedisSubscriber::OnReply, this, "SUBSCRIBE %b", channel.data(),
                    channel.size());
}

void RedisSubscriber::OnReply(redisAsyncContext*, void* reply_pointer, void* self_pointer) {
  auto* self = static_cast<RedisSubscriber*>(self_pointer);
  auto* reply = static_cast<redisReply*>(reply_pointer);
  // No reply: the connection is going away (pending callbacks are flushed with NULL).
  if (reply == nullptr || reply->type != REDIS_REPLY_ARRAY || reply->elements < 3 ||
      reply->element[0]->type != REDIS_REPLY_STRING ||
      reply->element[1]->type != REDIS_REPLY_STRING) {
    return;
  }
  std::string_view kind(reply->element[0]->str, reply->element[0]->len);
  std::string_view channel(reply->element[1]->str, reply->element[1]->len);
  if (kind == "message") {
    redisReply* payload = reply->element[2];
    if (payload->type == REDIS_REPLY_STRING && self->handlers_.message) {
      self->handlers_.message(channel, std::string_view(payload->str, payload->len));
    }
  } else if (kind == "subscribe") {
    log::Info("subscribed to Redis channel " + std::string(channel) + " at " + self->Where());
    self->backoff_.Reset();
    if (!self->subscribed_) {
      self->subscribed_ = true;
      if (self->handlers_.subscribed) self->handlers_.subscribed();
    }
  }
}

void RedisSubscriber::Retry(const std::string& why) {
  if (stopping_ || retry_timer_ == nullptr) return;
  std::chrono::milliseconds delay = backoff_.Next();
  log::Warn("Redis at " + Where() + ": " + why + "; retrying in " + std::to_string(delay.count()) +
            " ms");
  uv_timer_start(
      retry_timer_,
      [](uv_timer_t* timer) { static_cast<RedisSubscriber*>(timer->data)->Connect(); },
      static_cast<uint64_t>(delay.count()), 0);
}

}  // namespace netgraph::ws
