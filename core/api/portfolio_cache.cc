#include "core/api/portfolio_cache.h"

#include <utility>

#include "core/api/read_cache.h"

namespace netgraph::api {

const telemetry::Counter kPortfolioCacheHits(
    {"netgraph_portfolio_cache_hits_total", telemetry::MetricType::kCounter,
     "getUserPortfolio answers handed out from the workers' portfolio caches.", ""});
const telemetry::Counter kPortfolioCacheMisses(
    {"netgraph_portfolio_cache_misses_total", telemetry::MetricType::kCounter,
     "getUserPortfolio answers read from PostgreSQL while NETGRAPH_READ_CACHE is on.", ""});
const telemetry::Counter kPortfolioCacheBytes(
    {"netgraph_portfolio_cache_bytes", telemetry::MetricType::kGauge,
     "Memory the portfolio caches hold, summed over the workers (and past workers' last value "
     "until their slot is reused).",
     ""});

void PortfolioCache::Evict(Entries::iterator entry) {
  bytes_ -= entry->bytes;
  user_of_subject_.erase(entry->idp_did);
  by_user_.erase(entry->user_id);
  entries_.erase(entry);
  kPortfolioCacheBytes.Set(bytes_);
}

const graphql::Value* PortfolioCache::Find(const domain::Principal& principal,
                                           Clock::time_point now) {
  if (!enabled()) return nullptr;
  auto subject = user_of_subject_.find(principal.subject);
  if (subject != user_of_subject_.end()) {
    const Entries::iterator entry = by_user_.at(subject->second);
    if (entry->generation != generations_->Current(entry->user_id) ||
        (entry->valid_until && now >= *entry->valid_until)) {
      Evict(entry);
    } else if (domain::PrincipalNeedsNoWrite(principal, entry->email)) {
      entries_.splice(entries_.begin(), entries_, entry);
      kPortfolioCacheHits.Add();
      return &entry->answer;
    }
  }
  kPortfolioCacheMisses.Add();
  return nullptr;
}

std::uint64_t PortfolioCache::Generation(std::int64_t user_id) const {
  return enabled() ? generations_->Current(user_id) : 0;
}

void PortfolioCache::Keep(const domain::User& user, std::uint64_t generation, graphql::Value answer,
                          std::optional<Clock::time_point> valid_until) {
  if (!enabled() || generations_->Current(user.id) != generation) return;
  // One entry per user and per subject (a user deleted and made again has a new id).
  if (auto kept = user_of_subject_.find(user.idp_did); kept != user_of_subject_.end()) {
    Evict(by_user_.at(kept->second));
  }
  if (auto kept = by_user_.find(user.id); kept != by_user_.end()) Evict(kept->second);
  const std::size_t bytes = sizeof(Entry) + user.idp_did.size() + user.email.value_or("").size() +
                            ReadCache::ApproximateBytes(answer);
  if (bytes > max_bytes_) return;
  while (!entries_.empty() && (entries_.size() >= max_entries_ || bytes_ + bytes > max_bytes_)) {
    Evict(std::prev(entries_.end()));
  }
  entries_.push_front(
      Entry{user.id, user.idp_did, user.email, generation, std::move(answer), valid_until, bytes});
  by_user_[user.id] = entries_.begin();
  user_of_subject_[entries_.front().idp_did] = user.id;
  bytes_ += bytes;
  kPortfolioCacheBytes.Set(bytes_);
}

}  // namespace netgraph::api
