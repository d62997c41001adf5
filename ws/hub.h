// The fan-out of graph updates to subscribers. Subscribers whose subscriptions are the same (same
// document text, operation name and variables) share one engine subscription: an update is
// executed once per distinct subscription, and the one serialised result is handed to all of its
// subscribers.
//
// Shared executions run with an anonymous request context (see EventExecutor), which is correct
// because netgraph's subscription fields are public; a per-user subscription field would need the
// caller's identity in SubscriptionKey.
//
// The hub also keeps what its subscriptions hold within Options::memory (ws/options.h): a new
// subscription that would pass a bound is refused by Admit with a message naming the bound, so one
// client cannot grow the process (issue 9, defect 2). The requests of a client's queued queries and
// mutations count in the same bounds (HeldBytes, ws/operation_queue.h). Subscriptions with the same
// query text share one prepared document (FindDocument), whatever their variables.
//
// A connection, and an address, is charged for what it keeps alive: each document and each
// distinct subscription it uses, once however many times it uses them, plus a little per
// subscription. So a thousand clients behind one address sharing one document cost that address
// little, while distinct documents cost what their parsed trees take.
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
#include "core/graphql/utilities/value.h"
#include "core/status.h"
#include "ws/options.h"
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

// Which client address each subscriber (a connection's session) speaks for. The server tells it
// when a connection opens and after it closed.
class ClientDirectory {
 public:
  virtual ~ClientDirectory() = default;
  virtual void Connected(Subscriber& subscriber, std::string address) = 0;
  // Ends whatever `subscriber` still runs and forgets it.
  virtual void Disconnected(Subscriber& subscriber) = 0;
};

class Hub final : public ClientDirectory {
 public:
  explicit Hub(EventExecutor& executor, MemoryLimits limits = {})
      : executor_(executor), limits_(limits) {}
  Hub(const Hub&) = delete;
  Hub& operator=(const Hub&) = delete;

  // ClientDirectory. A subscriber never connected counts under the empty address.
  void Connected(Subscriber& subscriber, std::string address) override;
  void Disconnected(Subscriber& subscriber) override;

  // The document a running subscription prepared from `query`, to share; null when none does.
  std::shared_ptr<const graphql::PreparedDocument> FindDocument(std::string_view query) const;
  // Whether `subscriber` may start a subscription for `key` (joining the running one, or a new one
  // with `document`) within the memory bounds, counting what its connection, its address and the
  // process hold `elsewhere` too (queued operations); otherwise an error that names the bound.
  Status Admit(const SubscriptionKey& key, const graphql::PreparedDocument* document,
               Subscriber& subscriber, const HeldBytes& elsewhere = {}) const;

  // Adds (`subscriber`, `id`) to the running subscription for `key`; false when there is none.
  bool Join(const SubscriptionKey& key, Subscriber& subscriber, const std::string& id);
  // Registers a new subscription, fed by events on `topic`, with its first subscriber. `document`
  // is what the subscription was prepared from (shared with later subscriptions of the same text).
  void Add(SubscriptionKey key, std::string topic,
           std::unique_ptr<graphql::Subscription> subscription, Subscriber& subscriber,
           const std::string& id,
           std::shared_ptr<const graphql::PreparedDocument> document = nullptr);
  void Leave(Subscriber& subscriber, const std::string& id);
  void LeaveAll(Subscriber& subscriber);

  // Executes every subscription fed by `topic` once on `event`, stamps the result and hands it to
  // all of that subscription's subscribers. A result without data (a request error) ends the
  // subscription: each subscriber gets OnFailed. Returns the number of deliveries.
  std::size_t Publish(std::string_view topic, const graphql::Value& event,
                      const UpdateStamp& stamp);

  std::size_t subscription_count() const { return subscriptions_.size(); }
  std::size_t subscriber_count() const { return memberships_.size(); }
  std::size_t document_count() const { return documents_.size(); }
  // What the running subscriptions hold: their distinct documents once, and each one's key.
  std::size_t held_bytes() const { return held_bytes_; }
  // What `subscriber`'s subscriptions are charged.
  std::size_t bytes_of(Subscriber& subscriber) const;
  // What the subscriptions of `subscriber`'s connection and address are charged, and held_bytes().
  HeldBytes HeldBy(Subscriber& subscriber) const;

 private:
  using Member = std::pair<Subscriber*, std::string>;
  struct Document {
    std::shared_ptr<const graphql::PreparedDocument> prepared;
    std::size_t bytes = 0;
    std::size_t entries = 0;  // subscriptions using it
  };
  using Documents = std::map<std::string, Document, std::less<>>;  // by query text
  struct Entry {
    std::string topic;
    std::unique_ptr<graphql::Subscription> subscription;
    std::set<Member> members;
    Documents::iterator document;  // documents_.end() when the subscription came without one
    std::size_t bytes = 0;         // the key and the subscription, without the document
  };
  using Entries = std::map<SubscriptionKey, Entry>;
  // What a connection or an address keeps alive: the entries and documents it uses (by address,
  // with how many of its subscriptions use each) and their bytes.
  struct Usage {
    std::map<const void*, std::size_t> uses;
    std::size_t bytes = 0;

    // What one more subscription of `entry` (with `document`) would add to `bytes`.
    std::size_t Added(const void* entry, std::size_t entry_bytes, const void* document,
                      std::size_t document_bytes) const;
    void Use(const void* resource, std::size_t resource_bytes);
    void Release(const void* resource, std::size_t resource_bytes);
  };
  struct Client {
    std::string address;
    Usage usage;
  };

  // The entry's document and its bytes (null, 0 when it came without one).
  std::pair<const void*, std::size_t> DocumentOf(const Entry& entry) const;
  void AddMember(Entries::iterator entry, const Member& member);
  void Remove(const Member& member);
  // Adds (or with `use` false, removes) one subscription of `entry` to `subscriber`'s usage and
  // to its address's.
  void Account(Subscriber* subscriber, const Entry& entry, bool use);

  EventExecutor& executor_;
  const MemoryLimits limits_;
  Entries subscriptions_;
  Documents documents_;
  std::map<Member, Entries::iterator> memberships_;
  std::map<Subscriber*, Client> clients_;
  std::map<std::string, Usage> addresses_;
  std::size_t held_bytes_ = 0;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_HUB_H_
