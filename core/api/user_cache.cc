#include "core/api/user_cache.h"

namespace netgraph::api {

const telemetry::Counter kUserCacheHits(
    {"netgraph_user_cache_hits_total", telemetry::MetricType::kCounter,
     "Authenticated requests whose caller's user came from the workers' user caches.", ""});
const telemetry::Counter kUserCacheMisses(
    {"netgraph_user_cache_misses_total", telemetry::MetricType::kCounter,
     "Authenticated requests whose caller's user was read from PostgreSQL while "
     "NETGRAPH_READ_CACHE is on.",
     ""});

std::optional<domain::User> UserCache::Find(const domain::Principal& principal) {
  if (!enabled()) return std::nullopt;
  auto kept = by_subject_.find(principal.subject);
  if (kept != by_subject_.end()) {
    const Entries::iterator entry = kept->second;
    if (entry->generation && *entry->generation == generations_->Current(entry->user.id) &&
        domain::PrincipalNeedsNoWrite(principal, entry->user.email)) {
      entries_.splice(entries_.begin(), entries_, entry);
      kUserCacheHits.Add();
      domain::User user = entry->user;
      user.is_admin = user.is_admin || principal.admin_by_claim;
      return user;
    }
  }
  kUserCacheMisses.Add();
  return std::nullopt;
}

std::optional<UserCache::ReadAt> UserCache::Before(std::string_view subject) const {
  if (!enabled()) return std::nullopt;
  auto kept = by_subject_.find(subject);
  if (kept == by_subject_.end()) return std::nullopt;
  const std::int64_t user_id = kept->second->user.id;
  return ReadAt{user_id, generations_->Current(user_id)};
}

void UserCache::Keep(const domain::User& user, std::optional<ReadAt> read_at) {
  if (!enabled()) return;
  if (auto kept = by_subject_.find(user.idp_did); kept != by_subject_.end()) {
    const Entries::iterator entry = kept->second;
    by_subject_.erase(kept);
    entries_.erase(entry);
  }
  std::optional<std::uint64_t> generation;
  if (read_at && read_at->user_id == user.id &&
      generations_->Current(user.id) == read_at->generation) {
    generation = read_at->generation;
  }
  entries_.push_front(Entry{user, generation});
  by_subject_.emplace(entries_.front().user.idp_did, entries_.begin());
  if (entries_.size() > max_entries_) {
    by_subject_.erase(entries_.back().user.idp_did);
    entries_.pop_back();
  }
}

}  // namespace netgraph::api
