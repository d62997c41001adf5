// The fan-out of graph updates to subscribers. Subscribers whose subscriptions are the same (same
// document text, operation name and variables) share one engine subscription: an update is
// executed once per distinct subscription, and the one serialised result is handed to all of its
// subscribers.
//
// Shared executions run with an anonymous request context (see EventExecutor), which is correct
// because netgraph's subscription fields are public; a per-user subscription field would need the
// caller's identity in SubscriptionKey.
//
// Single-threaded: the event loop thread owns the hub.
#ifndef NETGRAPH_WS_HUB_H_
#define NETGRAPH_WS_HUB_H_

#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "core/graphql/engine.h"
#include "core/graphql/value.h"
#include "ws/session.h"
#include "ws/update.h"

namespace netgraph::ws {

// What makes two subscriptions the same.
struct SubscriptionKey {
  std::string query;
  std::string operation_name;  // empty when absent
  std::string variables;       // canonical JSON (sorted keys); empty when absent, null or {}

  static SubscriptionKey Of(const OperationRequest& request);
  friend auto operator<=>(const SubscriptionKey&, const SubscriptionKey&) = default;
};

// Runs a subscription's selection set on one event (Engine::ExecuteEvent in production).
class EventExecutor {
 public:
  virtual ~EventExecutor() = default;
  virtual graphql::ExecutionResult ExecuteEvent(const graphql::Subscription& subscription,
                                                const graphql::Value& event) = 0;
};

class Hub {
 public:
  explicit Hub(EventExecutor& executor) : executor_(executor) {}
  Hub(const Hub&) = delete;
  Hub& operator=(const Hub&) = delete;

  // Adds (`subscriber`, `id`) to the running subscription for `key`; false when there is none.
  bool Join(const SubscriptionKey& key, Subscriber& subscriber, const std::string& id);
  // Registers a new subscription, fed by events on `topic`, with its first subscriber.
  void Add(SubscriptionKey key, std::string topic,
           std::unique_ptr<graphql::Subscription> subscription, Subscriber& subscriber,
           const std::string& id);
  void Leave(Subscriber& subscriber, const std::string& id);
  void LeaveAll(Subscriber& subscriber);

  // Executes every subscription fed by `topic` once on `event`, stamps the result and hands it to
  // all of that subscription's subscribers. A result without data (a request error) ends the
  // subscription: each subscriber gets OnFailed. Returns the number of deliveries.
  std::size_t Publish(std::string_view topic, const graphql::Value& event,
                      const UpdateStamp& stamp);

  std::size_t subscription_count() const { return subscriptions_.size(); }
  std::size_t subscriber_count() const { return memberships_.size(); }

 private:
  using Member = std::pair<Subscriber*, std::string>;
  struct Entry {
    std::string topic;
    std::unique_ptr<graphql::Subscription> subscription;
    std::set<Member> members;
  };
  using Entries = std::map<SubscriptionKey, Entry>;

  void Remove(const Member& member);

  EventExecutor& executor_;
  Entries subscriptions_;
  std::map<Member, Entries::iterator> memberships_;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_HUB_H_
