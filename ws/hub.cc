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

bool Hub::Join(const SubscriptionKey& key, Subscriber& subscriber, const std::string& id) {
  auto entry = subscriptions_.find(key);
  if (entry == subscriptions_.end()) return false;
  Member member{&subscriber, id};
  Remove(member);  // a (subscriber, id) belongs to one subscription at most
  entry->second.members.insert(member);
  memberships_[member] = entry;
  return true;
}

void Hub::Add(SubscriptionKey key, std::string topic,
              std::unique_ptr<graphql::Subscription> subscription, Subscriber& subscriber,
              const std::string& id) {
  Member member{&subscriber, id};
  Remove(member);
  auto [entry, added] = subscriptions_.try_emplace(std::move(key));
  if (added) {
    entry->second.topic = std::move(topic);
    entry->second.subscription = std::move(subscription);
  }
  entry->second.members.insert(member);
  memberships_[member] = entry;
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

void Hub::Remove(const Member& member) {
  auto membership = memberships_.find(member);
  if (membership == memberships_.end()) return;
  Entries::iterator entry = membership->second;
  memberships_.erase(membership);
  entry->second.members.erase(member);
  if (entry->second.members.empty()) subscriptions_.erase(entry);
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
    std::set<Member> members = std::move(entry->second.members);
    for (const Member& member : members) memberships_.erase(member);
    subscriptions_.erase(entry);
    for (const Member& member : members) member.first->OnFailed(member.second, errors);
  }
  return deliveries;
}

}  // namespace netgraph::ws
