#include "ws/hub.h"

#include <vector>

#include "ws/messages.h"
#include "ws/metrics.h"

namespace netgraph::ws {

SubscriptionKey SubscriptionKey::Of(const OperationRequest& request) {
  SubscriptionKey key;
  key.query = request.query;
  key.operation_name = request.operation_name.value_or("");
  // nlohmann::json keeps object members sorted, so equal variables dump to equal text.
  if (request.variables.is_object() && !request.variables.empty()) {
    key.variables =
        request.variables.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return key;
}

namespace {

// What a subscription holds besides its document: the key's texts, the coerced variables (about
// the size of their text again) and the bookkeeping around them.
constexpr std::size_t kEntryOverheadBytes = 1024;
// What each subscription costs its connection and address besides the entries and documents it
// shares: the membership's bookkeeping.
constexpr std::size_t kMembershipBytes = 256;

std::size_t EntryBytes(const SubscriptionKey& key) {
  return kEntryOverheadBytes + key.query.capacity() + key.operation_name.capacity() +
         2 * key.variables.capacity();
}

// Reports the hub's sizes to /ws/metrics when a membership change is done, whichever way it ends.
struct ReportSizesAfter {
  const Hub& hub;
  ~ReportSizesAfter() {
    WsCounters& metrics = WsMetrics();
    metrics.subscribers = hub.subscriber_count();
    metrics.subscriptions = hub.subscription_count();
    metrics.documents = hub.document_count();
  }
};

}  // namespace

void Hub::Connected(Subscriber& subscriber, std::string address) {
  clients_[&subscriber].address = std::move(address);
}

void Hub::Disconnected(Subscriber& subscriber) {
  LeaveAll(subscriber);
  clients_.erase(&subscriber);
}

std::shared_ptr<const graphql::PreparedDocument> Hub::FindDocument(std::string_view query) const {
  auto document = documents_.find(query);
  return document == documents_.end() ? nullptr : document->second.prepared;
}

std::size_t Hub::bytes_of(Subscriber& subscriber) const {
  auto client = clients_.find(&subscriber);
  return client == clients_.end() ? 0 : client->second.usage.bytes;
}

std::size_t Hub::Usage::Added(const void* entry, std::size_t entry_bytes, const void* document,
                              std::size_t document_bytes) const {
  std::size_t added = kMembershipBytes;
  if (uses.count(entry) == 0) added += entry_bytes;
  if (document != nullptr && uses.count(document) == 0) added += document_bytes;
  return added;
}

void Hub::Usage::Use(const void* resource, std::size_t resource_bytes) {
  if (resource != nullptr && ++uses[resource] == 1) bytes += resource_bytes;
}

void Hub::Usage::Release(const void* resource, std::size_t resource_bytes) {
  if (resource == nullptr) return;
  auto use = uses.find(resource);
  if (--use->second > 0) return;
  uses.erase(use);
  bytes -= resource_bytes;
}

std::pair<const void*, std::size_t> Hub::DocumentOf(const Entry& entry) const {
  if (entry.document == documents_.end()) return {nullptr, 0};
  return {&entry.document->second, entry.document->second.bytes};
}

HeldBytes Hub::HeldBy(Subscriber& subscriber) const {
  HeldBytes held;
  held.process = held_bytes_;
  auto client = clients_.find(&subscriber);
  if (client == clients_.end()) return held;
  held.connection = client->second.usage.bytes;
  if (auto usage = addresses_.find(client->second.address); usage != addresses_.end()) {
    held.address = usage->second.bytes;
  }
  return held;
}

Status Hub::Admit(const SubscriptionKey& key, const graphql::PreparedDocument* document,
                  Subscriber& subscriber, const HeldBytes& elsewhere) const {
  // The resources the subscription would use: an entry (the running one, or a new one, which no
  // one uses yet) and a document (shared, or new); and what new ones add to the process.
  const void* entry_id = nullptr;
  std::size_t entry_bytes = EntryBytes(key);
  std::pair<const void*, std::size_t> document_use{nullptr, 0};
  std::size_t new_bytes = 0;
  bool new_document = false;
  if (auto entry = subscriptions_.find(key); entry != subscriptions_.end()) {
    entry_id = &entry->second;
    entry_bytes = entry->second.bytes;
    document_use = DocumentOf(entry->second);
  } else {
    new_bytes += entry_bytes;
    if (auto shared = documents_.find(key.query); shared != documents_.end()) {
      document_use = {&shared->second, shared->second.bytes};
    } else if (document != nullptr) {
      // No one uses a new document yet: any non-null identity that is not a resource will do.
      document_use = {document, document->held_bytes() + key.query.capacity()};
      new_bytes += document_use.second;
      new_document = true;
    }
  }
  static const Usage kUnused;
  const Usage* connection = &kUnused;
  const Usage* address = &kUnused;
  if (auto client = clients_.find(&subscriber); client != clients_.end()) {
    connection = &client->second.usage;
    if (auto usage = addresses_.find(client->second.address); usage != addresses_.end()) {
      address = &usage->second;
    }
  }
  std::size_t to_connection =
      connection->Added(entry_id, entry_bytes, document_use.first, document_use.second);
  if (connection->bytes + elsewhere.connection + to_connection > limits_.per_connection) {
    return Status::ResourceExhausted(
        "Subscription refused: this connection's subscriptions and waiting operations would hold "
        "more than " +
        MebibytesText(limits_.per_connection) +
        " of parsed documents and requests (NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_CONNECTION); this "
        "one needs " +
        std::to_string(to_connection) +
        " bytes. Complete some subscriptions or use smaller documents.");
  }
  std::size_t to_address =
      address->Added(entry_id, entry_bytes, document_use.first, document_use.second);
  if (address->bytes + elsewhere.address + to_address > limits_.per_address) {
    return Status::ResourceExhausted(
        "Subscription refused: the subscriptions and waiting operations of your address would "
        "hold more than " +
        MebibytesText(limits_.per_address) +
        " of parsed documents and requests (NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_ADDRESS)");
  }
  if (new_document && documents_.size() >= limits_.documents) {
    return Status::ResourceExhausted(
        "Subscription refused: the server runs as many distinct subscription "
        "documents as it may (" +
        std::to_string(limits_.documents) + ", NETGRAPH_WS_MAX_DOCUMENTS); try again later");
  }
  if (held_bytes_ + elsewhere.process + new_bytes > limits_.process) {
    return Status::ResourceExhausted(
        "Subscription refused: the server's subscriptions and waiting operations hold as much "
        "memory as they may (" +
        MebibytesText(limits_.process) + ", NETGRAPH_WS_MAX_DOCUMENT_BYTES); try again later");
  }
  return Status::Ok();
}

bool Hub::Join(const SubscriptionKey& key, Subscriber& subscriber, const std::string& id) {
  auto entry = subscriptions_.find(key);
  if (entry == subscriptions_.end()) return false;
  Member member{&subscriber, id};
  Remove(member);  // a (subscriber, id) belongs to one subscription at most
  AddMember(entry, member);
  return true;
}

void Hub::Add(SubscriptionKey key, std::string topic,
              std::unique_ptr<graphql::Subscription> subscription, Subscriber& subscriber,
              const std::string& id, std::shared_ptr<const graphql::PreparedDocument> document) {
  Member member{&subscriber, id};
  Remove(member);
  auto [entry, added] = subscriptions_.try_emplace(std::move(key));
  if (added) {
    entry->second.topic = std::move(topic);
    entry->second.subscription = std::move(subscription);
    entry->second.bytes = EntryBytes(entry->first);
    entry->second.document = documents_.end();
    held_bytes_ += entry->second.bytes;
    if (document != nullptr) {
      auto [shared, first] = documents_.try_emplace(entry->first.query);
      if (first) {
        shared->second.bytes = document->held_bytes() + shared->first.capacity();
        shared->second.prepared = std::move(document);
        held_bytes_ += shared->second.bytes;
      }
      ++shared->second.entries;
      entry->second.document = shared;
    }
  }
  AddMember(entry, member);
}

void Hub::Leave(Subscriber& subscriber, const std::string& id) { Remove({&subscriber, id}); }

void Hub::LeaveAll(Subscriber& subscriber) {
  auto first = memberships_.lower_bound(Member{&subscriber, std::string()});
  std::vector<Member> members;
  for (auto it = first; it != memberships_.end() && it->first.first == &subscriber; ++it) {
    members.push_back(it->first);
  }
  for (const Member& member : members) Remove(member);
}

void Hub::AddMember(Entries::iterator entry, const Member& member) {
  ReportSizesAfter report{*this};
  entry->second.members.insert(member);
  memberships_[member] = entry;
  Account(member.first, entry->second, true);
}

void Hub::Remove(const Member& member) {
  ReportSizesAfter report{*this};
  auto membership = memberships_.find(member);
  if (membership == memberships_.end()) return;
  Entries::iterator entry = membership->second;
  Account(member.first, entry->second, false);
  memberships_.erase(membership);
  entry->second.members.erase(member);
  if (!entry->second.members.empty()) return;
  held_bytes_ -= entry->second.bytes;
  if (Documents::iterator document = entry->second.document; document != documents_.end()) {
    if (--document->second.entries == 0) {
      held_bytes_ -= document->second.bytes;
      documents_.erase(document);
    }
  }
  subscriptions_.erase(entry);
}

void Hub::Account(Subscriber* subscriber, const Entry& entry, bool use) {
  Client& client = clients_[subscriber];
  Usage& address = addresses_[client.address];
  auto [document, document_bytes] = DocumentOf(entry);
  for (Usage* usage : {&client.usage, &address}) {
    if (use) {
      usage->bytes += kMembershipBytes;
      usage->Use(&entry, entry.bytes);
      usage->Use(document, document_bytes);
    } else {
      usage->bytes -= kMembershipBytes;
      usage->Release(&entry, entry.bytes);
      usage->Release(document, document_bytes);
    }
  }
  if (address.bytes == 0) addresses_.erase(client.address);
}

std::size_t Hub::Publish(std::string_view topic, const graphql::Value& event,
                         const UpdateStamp& stamp) {
  std::size_t deliveries = 0;
  std::vector<std::pair<Entries::iterator, graphql::ExecutionResult>> failed;
  for (auto entry = subscriptions_.begin(); entry != subscriptions_.end(); ++entry) {
    if (entry->second.topic != topic) continue;
    graphql::ExecutionResult result = executor_.ExecuteEvent(*entry->second.subscription, event);
    if (!result.has_data) {
      failed.emplace_back(entry, std::move(result));
      continue;
    }
    SharedText shared = std::make_shared<const std::string>(result.Body(StampExtensions(stamp)));
    for (const Member& member : entry->second.members) {
      member.first->OnNext(member.second, shared);
      ++deliveries;
    }
  }
  WsMetrics().deliveries_total += deliveries;
  for (auto& [entry, failure] : failed) {
    std::set<Member> members = entry->second.members;
    for (const Member& member : members) Remove(member);  // the last one erases the entry
    for (const Member& member : members) member.first->OnFailed(member.second, failure);
  }
  return deliveries;
}

}  // namespace netgraph::ws
