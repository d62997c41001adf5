#include "core/api/read_cache.h"

#include "core/telemetry.h"

#include <algorithm>
#include <utility>

namespace netgraph::api {

const telemetry::Counter kReadCacheHits(
    {"netgraph_read_cache_hits_total", telemetry::MetricType::kCounter,
     "Public reads (networkGraph, investmentData) answered from the workers' read caches.", ""});
const telemetry::Counter kReadCacheMisses(
    {"netgraph_read_cache_misses_total", telemetry::MetricType::kCounter,
     "Public reads the read caches sent to PostgreSQL (counted while NETGRAPH_READ_CACHE is on).",
     ""});
const telemetry::Counter kReadCacheBytes(
    {"netgraph_read_cache_bytes", telemetry::MetricType::kGauge,
     "Memory the read caches hold, keys included, summed over the workers (and past workers' last "
     "value until their slot is reused).",
     ""});

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

std::size_t ReadCache::EntryBytes(std::string_view key, const graphql::Value& value) {
  return sizeof(Entry) + key.size() + ApproximateBytes(value);
}

// One read running inside Get: the answers it uses narrow a used_until_ of its own, and however
// the read ends (a resolver that throws makes the pool answer 500) the outer read's is back and
// this cache no longer counts the read as running.
class ReadCache::NestedRead {
 public:
  explicit NestedRead(ReadCache& cache)
      : cache_(cache), outer_used_until_(std::exchange(cache.used_until_, std::nullopt)) {
    ++cache_.reads_running_;
  }
  ~NestedRead() {
    --cache_.reads_running_;
    cache_.used_until_ = outer_used_until_;
  }
  NestedRead(const NestedRead&) = delete;
  NestedRead& operator=(const NestedRead&) = delete;

  // What the answers used inside this read allow so far.
  const std::optional<Clock::time_point>& used_until() const { return cache_.used_until_; }

 private:
  ReadCache& cache_;
  const std::optional<Clock::time_point> outer_used_until_;
};

void ReadCache::Evict(std::vector<Entry>::iterator entry) {
  bytes_ -= entry->bytes;
  entries_.erase(entry);
  kReadCacheBytes.Set(bytes_);
}

void ReadCache::Restart(std::uint64_t generation) {
  entries_.clear();
  bytes_ = 0;
  entries_generation_ = generation;
  kReadCacheBytes.Set(bytes_);
}

void ReadCache::NoteUsed(const std::optional<Clock::time_point>& valid_until) {
  if (valid_until && (!used_until_ || *valid_until < *used_until_)) used_until_ = valid_until;
}

std::optional<std::string> ReadCache::Peek(std::string_view key, Clock::time_point now) {
  if (!enabled() || generation_->Current() != entries_generation_) return std::nullopt;
  auto found = std::find_if(entries_.begin(), entries_.end(),
                            [&](const Entry& entry) { return entry.key == key; });
  if (found == entries_.end() || (found->valid_until && now >= *found->valid_until)) {
    return std::nullopt;
  }
  found->last_used = ++uses_;
  return found->digest;
}

Result<graphql::Value> ReadCache::Get(std::string_view key, Clock::time_point now,
                                      const std::function<Result<Fresh>()>& read,
                                      std::string* digest) {
  if (!enabled()) {
    NETGRAPH_ASSIGN_OR_RETURN(Fresh fresh, read());
    if (digest != nullptr) *digest = std::move(fresh.digest);
    return std::move(fresh.value);
  }
  // Before the database: a change committed from here on leaves a newer generation behind.
  const std::uint64_t generation = generation_->Current();
  // All read at an older generation: none can be current again.
  if (generation != entries_generation_) Restart(generation);
  auto found = std::find_if(entries_.begin(), entries_.end(),
                            [&](const Entry& entry) { return entry.key == key; });
  if (found != entries_.end()) {
    if (!found->valid_until || now < *found->valid_until) {
      found->last_used = ++uses_;
      if (reads_running_ == 0) kReadCacheHits.Add();
      NoteUsed(found->valid_until);
      if (digest != nullptr) *digest = found->digest;
      return found->value;
    }
    Evict(found);
  }
  if (reads_running_ == 0) kReadCacheMisses.Add();
  // What the answers used inside this read allow, then what this answer allows its own reader.
  std::optional<Clock::time_point> inner_used_until;
  Result<Fresh> read_result = [&] {
    NestedRead nested(*this);
    Result<Fresh> result = read();
    inner_used_until = nested.used_until();
    return result;
  }();
  NETGRAPH_ASSIGN_OR_RETURN(Fresh fresh, std::move(read_result));
  if (inner_used_until && (!fresh.valid_until || *inner_used_until < *fresh.valid_until)) {
    fresh.valid_until = inner_used_until;
  }
  NoteUsed(fresh.valid_until);
  if (digest != nullptr) *digest = fresh.digest;
  // An answer used inside found a newer generation (and dropped the entries of this one): this
  // answer may mix data from both, so it is handed out but not kept.
  if (entries_generation_ != generation) return std::move(fresh.value);
  const std::size_t bytes = EntryBytes(key, fresh.value) + fresh.digest.size();
  if (bytes > max_bytes_) return std::move(fresh.value);
  while (!entries_.empty() && (entries_.size() >= max_entries_ || bytes_ + bytes > max_bytes_)) {
    Evict(std::min_element(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      return a.last_used < b.last_used;
    }));
  }
  entries_.push_back(Entry{std::string(key), fresh.value, fresh.valid_until,
                           std::move(fresh.digest), bytes, ++uses_});
  bytes_ += bytes;
  kReadCacheBytes.Set(bytes_);
  return std::move(fresh.value);
}

}  // namespace netgraph::api
