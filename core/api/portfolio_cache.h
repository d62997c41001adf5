// The per-process cache of getUserPortfolio answers: a user's answer kept in memory and handed out
// again, without PostgreSQL, while that user's data provably did not change. Like the public read
// cache (core/api/read_cache.h) it has no TTL: an answer is valid for the user's generation it was
// read at (UserGenerations, which the process that hosts the service provides: fcgi/pool/
// user_generations.h) and, when the data says so, until the instant it next changes by time alone
// (a claim expires).
//
// The freshness contract (docs/architecture.md#the-portfolio-cache):
// - every transaction that changes what a portfolio shows announces the user at commit (database
//   triggers: core/store/migrations/0007_portfolio_changes.sql), and the announcement moves that
//   user's generation; the worker that committed moves it itself before answering;
// - a reader takes the user's generation BEFORE it reads the database, so an answer read while a
//   change commits is kept under a generation the change then leaves behind.
//
// Entries are keyed by the verified user's id, found by the verified token's subject; the token is
// verified on every request before the cache is asked (core/api/service.h), so a refused token
// never reaches an answer. At most max_entries answers holding at most max_bytes, the least
// recently used going first. Not thread-safe: one per process, like the service's connection.
#ifndef NETGRAPH_CORE_API_PORTFOLIO_CACHE_H_
#define NETGRAPH_CORE_API_PORTFOLIO_CACHE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/domain/user.h"
#include "core/graphql/engine.h"
#include "core/telemetry.h"

namespace netgraph::api {

// What the process's portfolio caches count: answers handed out from memory, answers read from
// the database while the cache is on, and the bytes they hold now (a gauge).
extern const telemetry::Counter kPortfolioCacheHits;
extern const telemetry::Counter kPortfolioCacheMisses;
extern const telemetry::Counter kPortfolioCacheBytes;

// Counters that advance whenever a user's portfolio may have changed. Implementations must make an
// advance visible to every reader at once, and may advance more than asked (users sharing a
// counter): Current(user) must change whenever Advance(user) or AdvanceAll() was called.
class UserGenerations {
 public:
  virtual ~UserGenerations() = default;
  virtual std::uint64_t Current(std::int64_t user_id) const = 0;
  virtual void Advance(std::int64_t user_id) = 0;
  // Every user's (a round's price, the token's decimals, or announcements that may have been lost).
  virtual void AdvanceAll() = 0;
};

class PortfolioCache {
 public:
  using Clock = std::chrono::system_clock;

  PortfolioCache(std::size_t max_entries, std::size_t max_bytes)
      : max_entries_(max_entries), max_bytes_(max_bytes) {}

  // Starts caching against `generations` (not owned; it must outlive the cache). Without them the
  // cache stays off.
  void Attach(UserGenerations* generations) { generations_ = generations; }
  bool enabled() const { return generations_ != nullptr && max_entries_ > 0; }

  // The answer kept for the user `principal` names, when it is still current at `now` and the
  // principal would find that user unchanged (domain::PrincipalNeedsNoWrite: a token carrying
  // another email first updates the user); null otherwise. Counts a hit, or a miss when the cache
  // is on. The pointer is valid until the next call.
  const graphql::Value* Find(const domain::Principal& principal, Clock::time_point now);

  // The generation to keep an answer of `user_id` under: take it before reading the database.
  std::uint64_t Generation(std::int64_t user_id) const;

  // Keeps `answer`, the portfolio of `user` (as read with the answer) read at `generation`, valid
  // until `valid_until` when the data will change by time alone. Not kept when it alone is larger
  // than max_bytes, or when the generation moved meanwhile.
  void Keep(const domain::User& user, std::uint64_t generation, graphql::Value answer,
            std::optional<Clock::time_point> valid_until);

  std::size_t size() const { return entries_.size(); }
  std::size_t bytes() const { return bytes_; }

 private:
  struct Entry {
    std::int64_t user_id = 0;
    std::string idp_did;
    std::optional<std::string> email;
    std::uint64_t generation = 0;
    graphql::Value answer;
    std::optional<Clock::time_point> valid_until;
    std::size_t bytes = 0;
  };
  using Entries = std::list<Entry>;  // the most recently used first

  void Evict(Entries::iterator entry);

  std::size_t max_entries_;
  std::size_t max_bytes_;
  std::size_t bytes_ = 0;
  UserGenerations* generations_ = nullptr;
  Entries entries_;
  std::unordered_map<std::int64_t, Entries::iterator> by_user_;
  std::unordered_map<std::string_view, std::int64_t> user_of_subject_;  // views of Entry::idp_did
};

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_PORTFOLIO_CACHE_H_
