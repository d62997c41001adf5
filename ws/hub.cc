#include "ws/hub.h"

#include <vector>

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

std::size_t EntryBytes(const SubscriptionKey& key) {
  return kEntryOverheadBytes + key.query.capacity() + key.operation_name.capacity() +
         2 * key.variables.capacity();
}

std::string Mebibytes(std::size_t bytes) {
  return std::to_string(bytes / (1024 * 1024)) + "." +
         std::to_string(bytes % (1024 * 1024) * 10 / (1024 * 1024)) + " MiB";
}

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
  return client == clients_.end() ? 0 : client->second.bytes;
}

std::size_t Hub::ChargeOf(const Entry& entry) const {
  return entry.bytes + (entry.document != documents_.end() ? entry.document->second.bytes : 0);
}

Status Hub::Admit(const SubscriptionKey& key, const graphql::PreparedDocument* document,
                  Subscriber& subscriber) const {
  std::size_t charge = 0;     // to the subscriber and its address
  std::size_t new_bytes = 0;  // to the process
  bool new_document = false;
  if (auto entry = subscriptions_.find(key); entry != subscriptions_.end()) {
    charge = ChargeOf(entry->second);
  } else {
    std::size_t document_bytes = 0;
    if (auto shared = documents_.find(key.query); shared != documents_.end()) {
      document_bytes = shared->second.bytes;
    } else if (document != nullptr) {
      document_bytes = document->held_bytes() + key.query.capacity();
      new_bytes += document_bytes;
      new_document = true;
    }
    charge = EntryBytes(key) + document_bytes;
    new_bytes += EntryBytes(key);
  }
  std::string address;
  std::size_t connection_bytes = 0;
  if (auto client = clients_.find(&subscriber); client != clients_.end()) {
    address = client->second.address;
    connection_bytes = client->second.bytes;
  }
  auto held = address_bytes_.find(address);
  std::size_t address_bytes = held == address_bytes_.end() ? 0 : held->second;
  if (connection_bytes + charge > limits_.per_connection) {
    return Status::Error(
        "Subscription refused: this connection's subscriptions would hold more than " +
        Mebibytes(limits_.per_connection) +
        " of parsed documents (NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_CONNECTION); this one needs " +
        std::to_string(charge) + " bytes. Complete some subscriptions or use smaller documents.");
  }
  if (address_bytes + charge > limits_.per_address) {
    return Status::Error(
        "Subscription refused: the subscriptions of your address would hold more than " +
        Mebibytes(limits_.per_address) +
        " of parsed documents (NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_ADDRESS)");
  }
  if (new_document && documents_.size() >= limits_.documents) {
    return Status::Error("Subscription refused: the server runs as many distinct subscription "
                         "documents as it may (" + std::to_string(limits_.documents) +
                         ", NETGRAPH_WS_MAX_DOCUMENTS); try again later");
  }
  if (held_bytes_ + new_bytes > limits_.process) {
    return Status::Error("Subscription refused: the server's subscriptions hold as much memory as "
                         "they may (" + Mebibytes(limits_.process) +
                         ", NETGRAPH_WS_MAX_DOCUMENT_BYTES); try again later");
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
  entry->second.members.insert(member);
  std::size_t charge = ChargeOf(entry->second);
  memberships_[member] = Membership{entry, charge};
  Charge(member.first, charge);
}

void Hub::Remove(const Member& member) {
  auto membership = memberships_.find(member);
  if (membership == memberships_.end()) return;
  Entries::iterator entry = membership->second.entry;
  Refund(member.first, membership->second.charged);
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

void Hub::Charge(Subscriber* subscriber, std::size_t bytes) {
  Client& client = clients_[subscriber];
  client.bytes += bytes;
  address_bytes_[client.address] += bytes;
}

void Hub::Refund(Subscriber* subscriber, std::size_t bytes) {
  Client& client = clients_[subscriber];
  client.bytes -= bytes;
  auto address = address_bytes_.find(client.address);
  address->second -= bytes;
  if (address->second == 0) address_bytes_.erase(address);
}

std::size_t Hub::Publish(std::string_view topic, const graphql::Value& event,
                         const UpdateStamp& stamp) {
  std::size_t deliveries = 0;
  std::vector<std::pair<Entries::iterator, std::string>> failed;  // with their errors
  for (auto entry = subscriptions_.begin(); entry != subscriptions_.end(); ++entry) {
    if (entry->second.topic != topic) continue;
    graphql::ExecutionResult result = executor_.ExecuteEvent(*entry->second.subscription, event);
    if (!result.has_data) {
      failed.emplace_back(entry, std::move(result.body));
      continue;
    }
    SharedText shared = std::make_shared<const std::string>(StampedBody(result.body, stamp));
    for (const Member& member : entry->second.members) {
      member.first->OnNext(member.second, shared);
      ++deliveries;
    }
  }
  for (auto& [entry, errors] : failed) {
    std::set<Member> members = entry->second.members;
    for (const Member& member : members) Remove(member);  // the last one erases the entry
    for (const Member& member : members) member.first->OnFailed(member.second, errors);
  }
  return deliveries;
}

}  // namespace netgraph::ws
