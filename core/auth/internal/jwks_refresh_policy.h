// When a process fetches its JWKS URL again (NETGRAPH_JWT_JWKS_URL): pure logic over a caller's
// clock, so it is tested with a fake one (tests/unit/auth/jwks_refresh_policy_test.cc).
//
//   - The first fetch is due at once.
//   - After a good fetch the set is kept for the provider's Cache-Control max-age, clamped to
//     [min_interval, max_interval]; without a max-age, for max_interval.
//   - After a failed fetch (provider down, an error status, a body that is not a usable JWKS) the
//     next try is min_interval later; the caller keeps serving with the last good set meanwhile.
//   - A token naming an unknown kid asks for an early fetch, granted only when the last attempt is
//     at least min_interval old: tokens with forged kids cost the provider at most one request
//     per min_interval per process, however many arrive.
// Not thread-safe: JwksKeySet (core/auth/jwks_key_set.h) locks around it. Internal to core/auth.
#ifndef NETGRAPH_CORE_AUTH_INTERNAL_JWKS_REFRESH_POLICY_H_
#define NETGRAPH_CORE_AUTH_INTERNAL_JWKS_REFRESH_POLICY_H_

#include <chrono>
#include <optional>
#include <string_view>

namespace netgraph::auth {

// The max-age of a Cache-Control header value ("public, max-age=300"), or none when it has no
// valid one. no-store and no-cache count as max-age 0 (so the lower bound applies).
std::optional<std::chrono::seconds> MaxAgeOf(std::string_view cache_control);

class JwksRefreshPolicy {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  // min_interval <= max_interval, both positive (LoadAuthConfig validates the settings).
  JwksRefreshPolicy(std::chrono::seconds min_interval, std::chrono::seconds max_interval);

  // Whether a fetch should start at `now`.
  bool FetchDue(TimePoint now) const;
  // When FetchDue next becomes true, as things stand at `now` (`now` itself when it is already).
  TimePoint NextDue(TimePoint now) const;
  // A token named a kid the current set lacks: fetch as soon as the rate limit allows.
  void NoteUnknownKid() { unknown_kid_ = true; }
  // A fetch starts (it answers any unknown kid noted so far).
  void FetchStarted(TimePoint now);
  void FetchSucceeded(TimePoint now, std::optional<std::chrono::seconds> max_age);
  void FetchFailed(TimePoint now);

  // When the next scheduled fetch is due (after the first attempt).
  TimePoint next_fetch() const { return next_fetch_; }
  std::chrono::seconds min_interval() const { return min_interval_; }

 private:
  std::chrono::seconds min_interval_;
  std::chrono::seconds max_interval_;
  std::optional<TimePoint> last_attempt_;
  TimePoint next_fetch_{};
  bool unknown_kid_ = false;
};

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_INTERNAL_JWKS_REFRESH_POLICY_H_
