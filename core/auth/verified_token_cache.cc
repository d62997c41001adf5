#include "core/auth/internal/verified_token_cache.h"

namespace netgraph::auth {

VerifiedTokenCache::VerifiedTokenCache(std::size_t capacity) : capacity_(capacity) {}

std::optional<nlohmann::json> VerifiedTokenCache::Find(std::string_view token,
                                                       std::uint64_t key_generation) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = claims_by_token_.find(std::string(token));
  if (it == claims_by_token_.end() || it->second.key_generation != key_generation) {
    return std::nullopt;
  }
  return it->second.claims;
}

void VerifiedTokenCache::Insert(std::string_view token, const nlohmann::json& claims,
                                std::uint64_t key_generation) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (capacity_ == 0) return;
  auto [it, inserted] =
      claims_by_token_.try_emplace(std::string(token), Entry{claims, key_generation});
  if (!inserted) {
    // Verified again with another key set: from now on that is the one it was verified with.
    if (it->second.key_generation != key_generation) it->second = Entry{claims, key_generation};
    return;
  }
  oldest_first_.push_back(&it->first);
  if (oldest_first_.size() > capacity_) {
    claims_by_token_.erase(claims_by_token_.find(*oldest_first_.front()));
    oldest_first_.pop_front();
  }
}

}  // namespace netgraph::auth
