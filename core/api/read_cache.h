// The per-process read cache of the public queries (networkGraph, investmentData): their answers
// kept in memory and handed out again until the data changes, so a public read does not touch
// PostgreSQL on every request. There is no TTL: an answer is valid for the data generation it was
// read at (DataGeneration, which the process that hosts the service provides, e.g. a counter that
// all workers of a FastCGI pool share: fcgi/pool/data_generation.h) and, when the data says so,
// until the instant it next changes by time alone.
//
// The freshness contract (docs/architecture.md#the-read-cache) rests on two rules:
// - whoever commits a change of the public data advances the generation before answering, and
//   changes committed elsewhere advance it as soon as they are announced;
// - a reader takes the generation BEFORE it reads the database, so an answer read while a change
//   commits is stored under the generation the change then leaves behind, never as current.
//
// Not thread-safe: one per process, like the service's connection.
#ifndef NETGRAPH_CORE_API_READ_CACHE_H_
#define NETGRAPH_CORE_API_READ_CACHE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/graphql/engine.h"
#include "core/status.h"
#include "core/telemetry.h"

namespace netgraph::api {

// What the process's read caches count (core/telemetry.h): public reads answered from memory and
// sent to the database, and the bytes they hold now (a gauge).
extern const telemetry::Counter kReadCacheHits;
extern const telemetry::Counter kReadCacheMisses;
extern const telemetry::Counter kReadCacheBytes;

// A counter that advances whenever the public data (the graph, the vouchers, the rounds, the
// token) may have changed. Implementations must make an Advance visible to every reader of the
// same data at once: a reader that starts after Advance returned sees the new value.
class DataGeneration {
 public:
  virtual ~DataGeneration() = default;
  virtual std::uint64_t Current() const = 0;
  virtual void Advance() = 0;
};

class ReadCache {
 public:
  using Clock = std::chrono::system_clock;

  // What a read of the database produced: the answer and, when it will change with no write (a
  // round opens, a claim expires), that instant.
  struct Fresh {
    Fresh(graphql::Value fresh_value, std::optional<Clock::time_point> fresh_valid_until,
          std::string fresh_digest = {})
        : value(std::move(fresh_value)),
          valid_until(fresh_valid_until),
          digest(std::move(fresh_digest)) {}

    graphql::Value value;
    std::optional<Clock::time_point> valid_until;
    // What the reader says identifies the answer (a whole answer's AnswerDigest, answer_key.h),
    // kept and handed back with it; empty for none.
    std::string digest;
  };

  // Keeps at most `max_entries` answers (distinct keys) of one generation, holding at most
  // `max_bytes` together, their keys included (EntryBytes); the least recently used goes first,
  // and an entry larger than `max_bytes` is not kept. While the cache is on, what it holds is the
  // gauge kReadCacheBytes.
  ReadCache(std::size_t max_entries, std::size_t max_bytes)
      : max_entries_(max_entries), max_bytes_(max_bytes) {}

  // Starts caching against `generation` (not owned; it must outlive the cache). Without one the
  // cache stays off: Get always reads.
  void Attach(DataGeneration* generation) { generation_ = generation; }
  bool enabled() const { return generation_ != nullptr && max_entries_ > 0; }

  // The answer for `key`: from memory when it was read at the current generation and is still
  // valid at `now`, otherwise from `read`, kept when it succeeds. Errors are never kept.
  //
  // `read` may itself Get other answers (a whole GraphQL answer built from the answers of its
  // fields): the outer answer is then valid only until the earliest instant any answer it used
  // is, and it is not kept when an answer it used was read at a newer generation than its own.
  // Only the outermost Get counts towards kReadCacheHits or kReadCacheMisses.
  // With `digest`, the answer's digest (Fresh::digest) is stored there, from memory or from `read`.
  Result<graphql::Value> Get(std::string_view key, Clock::time_point now,
                             const std::function<Result<Fresh>()>& read,
                             std::string* digest = nullptr);

  // The digest of the answer kept for `key` when Get would hand it out from memory now (read at the
  // current generation, still valid at `now`); nullopt otherwise. Reads nothing, counts nothing.
  std::optional<std::string> Peek(std::string_view key, Clock::time_point now);

  std::size_t size() const { return entries_.size(); }
  std::size_t bytes() const { return bytes_; }

  // The memory `value` holds: each value, its strings and object keys (a networkGraph answer of
  // 1,000 nodes holds about 1.4 MB, seven times its JSON).
  static std::size_t ApproximateBytes(const graphql::Value& value);
  // What an entry of `key` holding `value` counts against max_bytes: a key is held as long as its
  // answer, and may be the larger of the two (core/api/answer_key.h).
  static std::size_t EntryBytes(std::string_view key, const graphql::Value& value);

 private:
  struct Entry {
    std::string key;
    graphql::Value value;
    std::optional<Clock::time_point> valid_until;
    std::string digest;
    std::size_t bytes = 0;
    std::uint64_t last_used = 0;
  };

  class NestedRead;

  void Evict(std::vector<Entry>::iterator entry);
  // Drops every entry (all read at an older generation than `generation`).
  void Restart(std::uint64_t generation);
  // Narrows used_until_ to `valid_until` (an answer handed out to whoever reads an outer one).
  void NoteUsed(const std::optional<Clock::time_point>& valid_until);

  std::size_t max_entries_;
  std::size_t max_bytes_;
  std::size_t bytes_ = 0;
  DataGeneration* generation_ = nullptr;
  std::uint64_t entries_generation_ = 0;  // every entry was read at this generation
  std::uint64_t uses_ = 0;
  // The earliest valid_until of the answers handed out since the innermost running read began.
  std::optional<Clock::time_point> used_until_;
  // Reads running inside one another: only the outermost Get counts as a hit or a miss, so that
  // each request counts once whether its whole answer or its fields' answers were looked up.
  int reads_running_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_READ_CACHE_H_
