#include "ws/graphql_backend.h"

#include <malloc.h>

#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/graphql/utilities/value.h"
#include "core/log.h"
#include "ws/messages.h"
#include "ws/metrics.h"

namespace netgraph::ws {
namespace {

graphql::ExecutionResult RequestError(std::string_view message) {
  return {false, {}, nlohmann::json::array({{{"message", message}}}).dump()};
}

// A refusal of the operation queue, with the code clients recognise it by.
graphql::ExecutionResult QueueFullError(std::string_view message) {
  return {
      false,
      {},
      nlohmann::json::array({{{"message", message}, {"extensions", {{"code", kQueueFullCode}}}}})
          .dump(),
      {std::string(kQueueFullCode)}};
}

constexpr std::size_t kTrimAfterReleasedBytes = 1024 * 1024;

// What a queued operation holds besides its request and id: the job and its two closures, the
// caller's identity, the pending entry.
constexpr std::size_t kJobOverheadBytes = 512;

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
          [this](std::string_view channel, const domain::UpdateMessage& update,
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
                                  const OperationRequest& sent, graphql::RequestContext* context) {
  auto& scope = static_cast<api::RequestScope&>(*context);
  // A persisted query is resolved here from the process's memory and the manifest only: the loop
  // never waits on PostgreSQL (core/api/persisted_documents.h). A refusal goes out as a result
  // with errors (next, then complete), which Apollo Client's persisted query link answers with
  // the text; an error message would end the operation.
  OperationRequest request = sent;
  api::PersistedLookup persisted = service_.persisted_documents().Resolve(nullptr, request);
  if (persisted.refusal) return {StartResult::Kind::kResult, std::move(*persisted.refusal)};
  // A hash the loop does not know: a database thread looks it up and runs the query or mutation
  // (a subscription's hash comes back not found, and the client sends its text).
  if (persisted.needs_database) return StartOnWorker(subscriber, id, request, scope);
  // A running subscription's document is reused: the same text is parsed and held once.
  std::shared_ptr<const graphql::PreparedDocument> document = hub_.FindDocument(request.query);
  if (document == nullptr) document = service_.engine().Prepare(request.query);
  if (!persisted.to_register.empty() && document->valid()) {
    service_.persisted_documents().Remember(persisted.to_register, request.query);
    RegisterOnWorker(subscriber, persisted.to_register, request.query);
  }
  if (!document->valid()) {
    // A document that does not run at all: its request error, without the database.
    api::OperationOptions options;
    options.document = document;
    api::OperationRun run =
        api::RunOperation(service_, request, api::Caller::WithScope(scope), options);
    return {StartResult::Kind::kRequestError, std::move(run.result)};
  }
  std::optional<std::string_view> operation_name;
  if (request.operation_name) operation_name = *request.operation_name;
  if (document->OperationTypeFor(operation_name) != graphql::OperationType::kSubscription) {
    return StartOnWorker(subscriber, id, request, scope);
  }

  SubscriptionKey key = SubscriptionKey::Of(request);
  const Client& client = ClientOf(subscriber);
  if (Status admitted = hub_.Admit(key, document.get(), subscriber,
                                   workers_.HeldBy(client.connection, client.address));
      !admitted.ok()) {
    return {StartResult::Kind::kRequestError, RequestError(admitted.message())};
  }
  if (hub_.Join(key, subscriber, id)) return {StartResult::Kind::kSubscribed, {}};
  graphql::ExecutionResult error;
  std::unique_ptr<graphql::Subscription> subscription =
      api::Subscribe(service_, document, request, scope, &error);
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
                                          const api::RequestScope& scope) {
  // The credentials Authenticate verified, for a context of the worker's own service: nothing of
  // the loop's service (its connection above all) is used off the loop.
  std::optional<auth::Identity> identity;
  if (scope.identity() != nullptr) identity = *scope.identity();
  const Client& client = ClientOf(subscriber);
  DatabaseWorkers::Job job;
  job.connection = client.connection;
  job.address = client.address;
  job.ticket = ++next_ticket_;
  // The id is held twice (pending_ and the completion).
  job.bytes = RequestHeldBytes(request) + 2 * id.capacity() + kJobOverheadBytes;
  job.work = [request, credentials = scope.credentials(), identity](api::Service& service) mutable {
    api::RequestScope worker_scope(service, credentials, identity);
    api::OperationRun run =
        api::RunOperation(service, std::move(request), api::Caller::WithScope(worker_scope), {});
    if (run.operation && run.operation->type == graphql::OperationType::kSubscription) {
      // Only a hash the loop did not know brings a subscription here: the loop starts it once
      // the client sends the text.
      return StartResult{StartResult::Kind::kResult, api::PersistedQueryNotFound()};
    }
    return StartResult{
        // A persisted query's refusal is a result with errors, as on the loop (Start).
        run.result.has_data || run.persisted_refusal ? StartResult::Kind::kResult
                                                     : StartResult::Kind::kRequestError,
        std::move(run.result)};
  };
  job.completion = [this, subscriber = &subscriber, id, ticket = job.ticket,
                    bytes = job.bytes](StartResult result) {
    NoteReleased(bytes);
    auto pending = pending_.find({subscriber, id});
    if (pending == pending_.end() || pending->second != ticket) return;  // stopped meanwhile
    pending_.erase(pending);
    subscriber->OnResult(id, result);
  };
  const std::uint64_t ticket = job.ticket;
  if (std::optional<OperationQueue::Refusal> refusal =
          workers_.Submit(std::move(job), hub_.HeldBy(subscriber))) {
    return {StartResult::Kind::kRequestError, QueueFullError(refusal->message)};
  }
  pending_[{&subscriber, id}] = ticket;
  return {StartResult::Kind::kPending, {}};
}

void GraphqlBackend::RegisterOnWorker(Subscriber& subscriber, const std::string& hash,
                                      const std::string& text) {
  const Client& client = ClientOf(subscriber);
  DatabaseWorkers::Job job;
  job.connection = client.connection;
  job.address = client.address;
  job.ticket = ++next_ticket_;
  job.bytes = hash.capacity() + text.capacity() + kJobOverheadBytes;
  job.work = [hash, text](api::Service& service) {
    service.persisted_documents().Register(service.database(), hash, text);
    return StartResult{StartResult::Kind::kResult, {}};
  };
  job.completion = [this, bytes = job.bytes](StartResult) { NoteReleased(bytes); };
  // Refused by the client's queue bounds, the document is only not stored: the client sends its
  // text again where it is unknown.
  workers_.Submit(std::move(job), hub_.HeldBy(subscriber));
}

void GraphqlBackend::Stop(Subscriber& subscriber, const std::string& id) {
  std::size_t released = 0;
  if (auto pending = pending_.find({&subscriber, id}); pending != pending_.end()) {
    released += workers_.Cancel(ClientOf(subscriber).connection, pending->second).bytes;
    pending_.erase(pending);
  }
  std::size_t held = hub_.held_bytes();
  hub_.Leave(subscriber, id);
  NoteReleased(released + held - hub_.held_bytes());
}

void GraphqlBackend::StopAll(Subscriber& subscriber) {
  std::size_t released = workers_.CancelAll(ClientOf(subscriber).connection).bytes;
  for (auto pending = pending_.lower_bound({&subscriber, std::string()});
       pending != pending_.end() && pending->first.first == &subscriber;) {
    pending = pending_.erase(pending);
  }
  std::size_t held = hub_.held_bytes();
  hub_.LeaveAll(subscriber);
  NoteReleased(released + held - hub_.held_bytes());
}

void GraphqlBackend::Connected(Subscriber& subscriber, std::string address) {
  clients_[&subscriber] = Client{++next_connection_, address};
  hub_.Connected(subscriber, std::move(address));
}

void GraphqlBackend::Disconnected(Subscriber& subscriber) {
  StopAll(subscriber);
  hub_.Disconnected(subscriber);
  clients_.erase(&subscriber);
}

const GraphqlBackend::Client& GraphqlBackend::ClientOf(Subscriber& subscriber) const {
  static const Client kUnknown;
  auto client = clients_.find(&subscriber);
  return client == clients_.end() ? kUnknown : client->second;
}

void GraphqlBackend::NoteReleased(std::size_t bytes) {
  released_since_trim_ += bytes;
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
  Result<domain::UpdateMessage> update =
      payload.ok() ? domain::UpdateMessage::Parse(*payload, max_update_bytes_)
                   : Result<domain::UpdateMessage>(payload.status());
  if (!update.ok()) {
    refusals_.Record("on channel " + std::string(channel) + ": " + update.status().message());
    return;
  }
  feed_.OnMessage(channel, *update);
}

}  // namespace netgraph::ws
