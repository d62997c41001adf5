// The keys of a JWKS URL (NETGRAPH_JWT_JWKS_URL), fetched over HTTPS and kept fresh by
// JwksRefreshPolicy (core/auth/internal/jwks_refresh_policy.h): refreshed per the provider's
// Cache-Control max-age within the configured bounds, fetched early (rate limited) when a token
// names an unknown kid, and never replaced by a failed fetch: while the provider is down or serves
// something that is not a usable JWKS, the last good set stays in use (and the failure is logged).
//
// Each process holds its own (the pool's master fetches once when it loads the configuration, at
// start and on reload, so new workers start with its set; from then on every worker and netgraph-ws
// refresh on their own). Who fetches when a fetch is due is the owner's choice, never a request's:
// token verification only reads Current() and notes unknown kids, so no request waits on the
// identity provider. The pool's workers refresh on a thread of their own (RefreshInBackground,
// fcgi/main.cc), netgraph-ws from a timer on libuv's thread pool (ws/main.cc).
//
// Thread-safe: Current() may run on any thread while another fetches; one fetch runs at a time.
#ifndef NETGRAPH_CORE_AUTH_JWKS_KEY_SET_H_
#define NETGRAPH_CORE_AUTH_JWKS_KEY_SET_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/auth/auth_config.h"
#include "core/auth/internal/jwks_refresh_policy.h"
#include "core/auth/internal/keys.h"
#include "core/status.h"

namespace netgraph::auth {

// What a JWKS URL answered.
struct JwksDocument {
  std::string body;
  std::optional<std::chrono::seconds> max_age;  // from Cache-Control (MaxAgeOf)
};

class JwksKeySet {
 public:
  using Fetch = std::function<Result<JwksDocument>()>;
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // The keys in use, and a number that changes whenever they do (so that tokens verified with an
  // earlier set are checked again).
  struct Snapshot {
    std::shared_ptr<const std::vector<VerificationKey>> keys;  // null before the first good fetch
    std::uint64_t generation = 0;
  };

  // Fetches nothing yet. `fetch` and `clock` are for tests; by default config.jwks_endpoint is
  // fetched over HTTPS (core/auth/internal/jwks_fetch.h) and the clock is steady_clock.
  explicit JwksKeySet(const AuthConfig& config, Fetch fetch = nullptr, Clock clock = nullptr);
  // Stops the background thread, if any, once a fetch in flight has ended (it is bounded by
  // NETGRAPH_JWT_JWKS_TIMEOUT_MS).
  ~JwksKeySet();

  Snapshot Current() const;
  // A token named a kid the current set lacks: the next fetch comes as early as the policy allows
  // (the background thread is woken for it). Returns at once.
  void NoteUnknownKid();
  bool FetchDue() const;
  // Fetches when due, unless another thread is fetching already (then returns at once). A good
  // JWKS (one VerificationKeysFromJwks accepts) with other keys replaces the set; anything else
  // keeps it. Returns whether the set changed.
  bool RefreshIfDue();

  // From now on a thread of this process fetches whenever a fetch is due (the schedule, or an
  // unknown kid as early as the policy allows) and sleeps in between. Call it once, in the
  // process that verifies tokens with the set and after any fork: a forked child has none of its
  // parent's threads, and a parent must not fork while the thread runs (the pool's master never
  // calls it; each worker does as it starts). The thread blocks every signal, so the process's
  // handlers keep running on its main thread.
  void RefreshInBackground();

  const std::string& url() const { return url_; }

 private:
  void RefreshLoop();

  const std::string url_;
  const JwtAlgorithm algorithm_;
  Fetch fetch_;
  Clock clock_;
  std::mutex fetching_;       // held for the whole of a fetch
  mutable std::mutex mutex_;  // guards the members below
  JwksRefreshPolicy policy_;
  Snapshot current_;
  std::condition_variable wake_;  // NoteUnknownKid and the destructor wake the thread
  bool stopping_ = false;
  std::thread refresher_;  // RefreshInBackground's
};

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_JWKS_KEY_SET_H_
