// The per-process cache of the callers' user rows: the user a verified token's subject names,
// handed out again without PostgreSQL while that user's row provably did not change. Every
// authenticated operation starts with that user (core/api/request_scope.h); a claim's own work is
// one statement, so the user's lookup before it was a round trip in two (docs/benchmarks.md,
// "Issue 27 item 2: what a claim costs PostgreSQL").
//
// The freshness contract is the portfolio cache's (core/api/portfolio_cache.h), on generations of
// the user rows of their own (a portfolio's move with every claim): every write to a user row
// announces the user at commit (a database trigger:
// core/store/migrations/0012_user_row_changes.sql) and the announcement moves that user's
// generation (fcgi/pool/outbox_relay_process.h). A row is kept under a generation taken BEFORE it
// was read, so a change committed while it was read leaves it behind. That needs the user's id
// before the read: the first read of a subject only learns the id, and the rows read from then on
// are kept. A row another worker writes (a token's new email) is announced within milliseconds;
// until then only that email can be stale here, and a token that carries it misses (below).
//
// The token is verified on every request before the cache is asked; a hit also requires that the
// principal would find the user unchanged (domain::PrincipalNeedsNoWrite: a token carrying another
// email first updates the user). is_admin is kept as the database flag and joined with the token's
// role claim on each hit. At most max_entries subjects, the least recently used going first. Not
// thread-safe: one per process, like the service's connection.
#ifndef NETGRAPH_CORE_API_USER_CACHE_H_
#define NETGRAPH_CORE_API_USER_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/api/portfolio_cache.h"
#include "core/domain/user.h"
#include "core/telemetry.h"

namespace netgraph::api {

// Users handed out from the process's cache, and users read from PostgreSQL while it is on.
extern const telemetry::Counter kUserCacheHits;
extern const telemetry::Counter kUserCacheMisses;

class UserCache {
 public:
  explicit UserCache(std::size_t max_entries) : max_entries_(max_entries) {}

  // Starts caching against the user rows' `generations` (not owned; it must outlive the cache).
  // Without them the cache stays off.
  void Attach(UserGenerations* generations) { generations_ = generations; }
  bool enabled() const { return generations_ != nullptr && max_entries_ > 0; }

  // The user `principal` names, is_admin joined with its role claim, when the kept row is still
  // current and the principal would find it unchanged; nullopt otherwise. Counts a hit, or a miss
  // when the cache is on.
  std::optional<domain::User> Find(const domain::Principal& principal);

  // What to read `subject`'s user under: the id learnt from an earlier read and that user's
  // generation now. Take it before reading the database; nullopt when the id is not known yet.
  struct ReadAt {
    std::int64_t user_id = 0;
    std::uint64_t generation = 0;
  };
  std::optional<ReadAt> Before(std::string_view subject) const;

  // Keeps `user` (is_admin: the database flag alone), read after Before gave `read_at`: as current
  // when it is the same user and its generation has not moved since, otherwise only its id, for
  // the next read.
  void Keep(const domain::User& user, std::optional<ReadAt> read_at);

  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    domain::User user;
    std::optional<std::uint64_t> generation;  // nullopt: only the id is known
  };
  using Entries = std::list<Entry>;  // the most recently used first

  std::size_t max_entries_;
  UserGenerations* generations_ = nullptr;
  Entries entries_;
  std::unordered_map<std::string_view, Entries::iterator> by_subject_;  // views of user.idp_did
};

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_USER_CACHE_H_
