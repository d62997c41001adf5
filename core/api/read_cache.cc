#include "core/api/read_cache.h"

#include "core/telemetry.h"

#include <algorithm>
#include <utility>

namespace netgraph::api {

std::size_t ReadCache::ApproximateBytes(const graphql::Value& value) {
  std::size_t bytes = sizeof(graphql::Value);
  switch (value.kind()) {
    case graphql::Value::Kind::kString:
      bytes += value.as_string().capacity();
      break;
    case graphql::Value::Kind::kList:
      for (const graphql::Value& item : value.as_list()) bytes += ApproximateBytes(item);
      break;
    case graphql::Value::Kind::kObject:
      for (const auto& [key, field] : value.as_object()) {
        bytes += sizeof(std::string) + key.capacity() + ApproximateBytes(field);
      }
      break;
    default:
      break;
  }
  return bytes;
}

void ReadCache::Evict(std::vector<Entry>::iterator entry) {
  bytes_ -= entry->bytes;
  entries_.erase(entry);
}

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
    bytes_ = 0;
    entries_generation_ = generation;
  }
  auto found = std::find_if(entries_.begin(), entries_.end(),
                            [&](const Entry& entry) { return entry.key == key; });
  if (found != entries_.end()) {
    if (!found->valid_until || now < *found->valid_until) {
      found->last_used = ++uses_;
      telemetry::Add(telemetry::Counter::kReadCacheHits);
      return found->value;
    }
    Evict(found);
  }
  telemetry::Add(telemetry::Counter::kReadCacheMisses);
  NETGRAPH_ASSIGN_OR_RETURN(Fresh fresh, read());
  const std::size_t bytes = ApproximateBytes(fresh.value);
  if (bytes > max_bytes_) return std::move(fresh.value);
  while (!entries_.empty() && (entries_.size() >= max_entries_ || bytes_ + bytes > max_bytes_)) {
    Evict(std::min_element(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      return a.last_used < b.last_used;
    }));
  }
  entries_.push_back(Entry{std::string(key), fresh.value, fresh.valid_until, bytes, ++uses_});
  bytes_ += bytes;
  return std::move(fresh.value);
}

}  // namespace netgraph::api
