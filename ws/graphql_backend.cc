#include "ws/graphql_backend.h"

#include <malloc.h>

#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/graphql/utilities/value.h"
#include "core/log.h"
#include "ws/metrics.h"

namespace netgraph::ws {
namespace {

graphql::ExecutionResult RequestError(std::string_view message) {
  return {false, {}, nlohmann::json::array({{{"message", message}}}).dump()};
}

constexpr std::size_t kTrimAfterReleasedBytes = 1024 * 1024;

// Whoever can publish on Redis can send refused messages at will: at most two lines per interval.
constexpr std::chrono::seconds kRefusalLogInterval{10};

}  // namespace

GraphqlBackend::GraphqlBackend(api::Service& service, DatabaseWorkers& workers,
                               std::chrono::seconds token_leeway, const MemoryLimits& limits,
                               std::function<void(const std::string&)> listen,
                               std::size_t max_update_bytes)
    : service_(service),
      workers_(workers),
      token_leeway_(token_leeway),
      listen_(std::move(listen)),
      anonymous_(service.NewRequest("")),
      max_update_bytes_(max_update_bytes),
      refusals_("refused a message from Redis", kRefusalLogInterval, log::Warn),
      hub_(*this, limits),
      feed_(
          *this,
          [this](std::string_view channel, const PublishedUpdate& update,
                 const UpdateStamp& stamp) {
            std::size_t deliveries =
                hub_.Publish(channel, graphql::Value::FromJson(update.event), stamp);
            WsMetrics().ObserveUpdateLag(update.appended_unix_us, deliveries);
            log::Debug("update " + std::to_string(stamp.sequence) + " on " + std::string(channel) +
                       ": " + std::to_string(deliveries) + " deliveries");
          },
          max_update_bytes) {}

Result<store::OutboxPosition> GraphqlBackend::Head() {
  return store::OutboxHead(service_.database());
}

Result<store::OutboxPage> GraphqlBackend::After(std::int64_t after_id, std::int64_t limit) {
  return store::OutboxAfter(service_.database(), after_id, limit);
}

Authentication GraphqlBackend::Authenticate(std::string_view authorization) {
  std::unique_ptr<api::RequestScope> scope = service_.NewRequest(authorization);
  if (scope->credentials() == api::Credentials::kInvalid) return {};
  Authentication authentication;
  if (const auth::Identity* identity = scope->identity()) {
    // The same instant as the verifier's: a token is accepted while now < exp + leeway.
    authentication.remaining = std::chrono::ceil<std::chrono::milliseconds>(
        identity->expires_at + token_leeway_ - std::chrono::system_clock::now());
  }
  authentication.context = std::move(scope);
  return authentication;
}

StartResult GraphqlBackend::Start(Subscriber& subscriber, const std::string& id,
                                  const OperationRequest& request,
                                  graphql::RequestContext* context) {
  graphql::Engine& engine = service_.engine();
  // A running subscription's document is reused: the same text is parsed and held once.
  std::shared_ptr<const graphql::PreparedDocument> document = hub_.FindDocument(request.query);
  if (document == nullptr) document = engine.Prepare(request.query);
  graphql::ExecuteParams params;
  if (request.operation_name) params.operation_name = *request.operation_name;
  params.variables = request.variables.is_null() ? nullptr : &request.variables;
  params.context = context;

  if (!document->valid()) {
    // A document that does not run at all: Execute gives the request error, without the database.
    graphql::ExecutionResult result = engine.Execute(*document, params);
    return {StartResult::Kind::kRequestError, std::move(result)};
  }
  if (document->OperationTypeFor(params.operation_name) != graphql::OperationType::kSubscription) {
    return StartOnWorker(subscriber, id, request, context);
  }

  SubscriptionKey key = SubscriptionKey::Of(request);
  if (Status admitted = hub_.Admit(key, document.get(), subscriber); !admitted.ok()) {
    return {StartResult::Kind::kRequestError, RequestError(admitted.message())};
  }
  if (hub_.Join(key, subscriber, id)) return {StartResult::Kind::kSubscribed, {}};
  graphql::ExecutionResult error;
  std::unique_ptr<graphql::Subscription> subscription = engine.Subscribe(document, params, &error);
  if (!subscription) return {StartResult::Kind::kRequestError, std::move(error)};
  const graphql::Value& topic = subscription->topic();
  if (topic.kind() != graphql::Value::Kind::kString) {
    log::Error(
        "a subscription's source stream names no Redis channel (its subscribe resolver "
        "must return the channel name)");
    return {StartResult::Kind::kRequestError,
            RequestError("This subscription has no event source")};
  }
  std::string channel = topic.as_string();
  hub_.Add(std::move(key), channel, std::move(subscription), subscriber, id, std::move(document));
  listen_(channel);
  return {StartResult::Kind::kSubscribed, {}};
}

StartResult GraphqlBackend::StartOnWorker(Subscriber& subscriber, const std::string& id,
                                          const OperationRequest& request,
                                          graphql::RequestContext* context) {
  // The credentials Authenticate verified, for a context of the worker's own service: nothing of
  // the loop's service (its connection above all) is used off the loop.
  const auto& scope = static_cast<const api::RequestScope&>(*context);
  std::optional<auth::Identity> identity;
  if (scope.identity() != nullptr) identity = *scope.identity();
  const std::uint64_t ticket = ++next_ticket_;
  pending_[{&subscriber, id}] = ticket;
  workers_.Submit(
      [request, credentials = scope.credentials(), identity](api::Service& service) {
        api::RequestScope worker_scope(service, credentials, identity);
        graphql::Engine& engine = service.engine();
        std::shared_ptr<const graphql::PreparedDocument> document = engine.Prepare(request.query);
        graphql::ExecuteParams params;
        if (request.operation_name) params.operation_name = *request.operation_name;
        params.variables = request.variables.is_null() ? nullptr : &request.variables;
        params.context = &worker_scope;
        graphql::ExecutionResult result = engine.Execute(*document, params);
        return StartResult{
            result.has_data ? StartResult::Kind::kResult : StartResult::Kind::kRequestError,
            std::move(result)};
      },
      [this, subscriber = &subscriber, id, ticket](StartResult result) {
        auto pending = pending_.find({subscriber, id});
        if (pending == pending_.end() || pending->second != ticket) return;  // stopped meanwhile
        pending_.erase(pending);
        subscriber->OnResult(id, result);
      });
  return {StartResult::Kind::kPending, {}};
}

void GraphqlBackend::Stop(Subscriber& subscriber, const std::string& id) {
  pending_.erase({&subscriber, id});
  std::size_t held = hub_.held_bytes();
  hub_.Leave(subscriber, id);
  ReleaseFreedMemory(held);
}

void GraphqlBackend::StopAll(Subscriber& subscriber) {
  for (auto pending = pending_.lower_bound({&subscriber, std::string()});
       pending != pending_.end() && pending->first.first == &subscriber;) {
    pending = pending_.erase(pending);
  }
  std::size_t held = hub_.held_bytes();
  hub_.LeaveAll(subscriber);
  ReleaseFreedMemory(held);
}

void GraphqlBackend::ReleaseFreedMemory(std::size_t held_before) {
  released_since_trim_ += held_before - hub_.held_bytes();
  if (released_since_trim_ < kTrimAfterReleasedBytes) return;
  released_since_trim_ = 0;
  ::malloc_trim(0);
}

graphql::ExecutionResult GraphqlBackend::ExecuteEvent(const graphql::Subscription& subscription,
                                                      const graphql::Value& event) {
  return service_.engine().ExecuteEvent(subscription, event, anonymous_.get());
}

void GraphqlBackend::OnPublished(std::string_view channel, std::string_view message) {
  Result<std::string_view> payload = service_.updates().Open(channel, message);
  Result<PublishedUpdate> update = payload.ok() ? ParseUpdate(*payload, max_update_bytes_)
                                                : Result<PublishedUpdate>(payload.status());
  if (!update.ok()) {
    refusals_.Record("on channel " + std::string(channel) + ": " + update.status().message());
    return;
  }
  feed_.OnMessage(channel, *update);
}

}  // namespace netgraph::ws
