#include "core/auth/internal/verified_token_cache.h"

namespace netgraph::auth {

VerifiedTokenCache::VerifiedTokenCache(std::size_t capacity) : capacity_(capacity) {}

std::optional<nlohmann::json> VerifiedTokenCache::Find(std::string_view token) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = claims_by_token_.find(std::string(token));
  if (it == claims_by_token_.end()) return std::nullopt;
  return it->second;
}

void VerifiedTokenCache::Insert(std::string_view token, const nlohmann::json& claims) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (capacity_ == 0) return;
  auto [it, inserted] = claims_by_token_.try_emplace(std::string(token), claims);
  if (!inserted) return;
  oldest_first_.push_back(&it->first);
  if (oldest_first_.size() > capacity_) {
    claims_by_token_.erase(claims_by_token_.find(*oldest_first_.front()));
    oldest_first_.pop_front();
  }
}

}  // namespace netgraph::auth
