#include "core/api/read_cache.h"

#include <algorithm>
#include <utility>

namespace netgraph::api {

Result<graphql::Value> ReadCache::Get(std::string_view key, Clock::time_point now,
                                      const std::function<Result<Fresh>()>& read) {
  if (!enabled()) {
    NETGRAPH_ASSIGN_OR_RETURN(Fresh fresh, read());
    return std::move(fresh.value);
  }
  // Before the database: a change committed from here on leaves a newer generation behind.
  const std::uint64_t generation = generation_->Current();
  if (generation != entries_generation_) {
    entries_.clear();  // all read at an older generation: none can be current again
    entries_generation_ = generation;
  }
  auto found = std::find_if(entries_.begin(), entries_.end(),
                            [&](const Entry& entry) { return entry.key == key; });
  if (found != entries_.end()) {
    if (!found->valid_until || now < *found->valid_until) {
      found->last_used = ++uses_;
      return found->value;
    }
    entries_.erase(found);
  }
  NETGRAPH_ASSIGN_OR_RETURN(Fresh fresh, read());
  if (entries_.size() >= capacity_) {
    entries_.erase(
        std::min_element(entries_.begin(), entries_.end(),
                         [](const Entry& a, const Entry& b) { return a.last_used < b.last_used; }));
  }
  entries_.push_back(Entry{std::string(key), fresh.value, fresh.valid_until, ++uses_});
  return std::move(fresh.value);
}

}  // namespace netgraph::api
