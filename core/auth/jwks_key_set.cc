#include "core/auth/jwks_key_set.h"

#include <pthread.h>
#include <signal.h>

#include <utility>

#include "core/auth/internal/jwks.h"
#include "core/auth/internal/jwks_fetch.h"
#include "core/log.h"

namespace netgraph::auth {

namespace {

bool SameKeys(const std::vector<VerificationKey>& a, const std::vector<VerificationKey>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].kid != b[i].kid || a[i].public_key_pem != b[i].public_key_pem) return false;
  }
  return true;
}

std::string DescribeKids(const std::vector<VerificationKey>& keys) {
  std::string kids;
  for (const VerificationKey& key : keys) {
    if (!kids.empty()) kids += ", ";
    kids += key.kid.value_or("(no kid)");
  }
  return std::to_string(keys.size()) + (keys.size() == 1 ? " key (" : " keys (") + kids + ")";
}

std::string InSeconds(std::chrono::steady_clock::duration wait) {
  return std::to_string(std::chrono::ceil<std::chrono::seconds>(wait).count()) + " s";
}

}  // namespace

JwksKeySet::JwksKeySet(const AuthConfig& config, Fetch fetch, Clock clock)
    : url_(config.jwks_endpoint.url),
      algorithm_(config.algorithm),
      fetch_(fetch ? std::move(fetch)
                   : Fetch([endpoint = config.jwks_endpoint] { return FetchJwks(endpoint); })),
      clock_(clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); })),
      policy_(config.jwks_min_refresh, config.jwks_max_refresh) {}

JwksKeySet::Snapshot JwksKeySet::Current() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return current_;
}

JwksKeySet::~JwksKeySet() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (refresher_.joinable()) refresher_.join();
}

void JwksKeySet::NoteUnknownKid() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    policy_.NoteUnknownKid();
  }
  wake_.notify_all();
}

void JwksKeySet::RefreshInBackground() {
  // The thread starts with every signal blocked (it inherits this mask), so a signal meant for
  // the process is handled by the thread that waits for it.
  sigset_t all;
  sigset_t previous;
  ::sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  refresher_ = std::thread([this] { RefreshLoop(); });
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void JwksKeySet::RefreshLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    const auto now = clock_();
    if (policy_.FetchDue(now)) {
      lock.unlock();
      RefreshIfDue();
      lock.lock();
      continue;
    }
    // Until the schedule says, or until an unknown kid (or the destructor) wakes it.
    wake_.wait_for(lock, policy_.NextDue(now) - now);
  }
}

bool JwksKeySet::FetchDue() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return policy_.FetchDue(clock_());
}

bool JwksKeySet::RefreshIfDue() {
  std::unique_lock<std::mutex> fetching(fetching_, std::try_to_lock);
  if (!fetching.owns_lock()) return false;
  std::shared_ptr<const std::vector<VerificationKey>> previous;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!policy_.FetchDue(clock_())) return false;
    policy_.FetchStarted(clock_());
    previous = current_.keys;
  }
  // The network wait happens outside mutex_: tokens keep being verified with the current set.
  Result<JwksDocument> document = fetch_();
  Result<std::vector<VerificationKey>> keys =
      document.ok() ? VerificationKeysFromJwks(document->body, algorithm_)
                    : Result<std::vector<VerificationKey>>(document.status());

  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = clock_();
  if (!keys.ok()) {
    policy_.FetchFailed(now);
    log::Warn("JWKS " + url_ + ": fetch failed (" + keys.status().message() + "); " +
              (previous ? "keeping the last good set, " + DescribeKids(*previous)
                        : std::string("no keys yet: every token is refused")) +
              "; next try in " + InSeconds(policy_.next_fetch() - now));
    return false;
  }
  policy_.FetchSucceeded(now, document->max_age);
  const std::string next = "; next fetch in " + InSeconds(policy_.next_fetch() - now);
  if (previous && SameKeys(*previous, *keys)) {
    log::Debug("JWKS " + url_ + ": unchanged" + next);
    return false;
  }
  log::Info("JWKS " + url_ + ": using " + DescribeKids(*keys) + next);
  current_.keys = std::make_shared<const std::vector<VerificationKey>>(std::move(keys).value());
  ++current_.generation;
  return true;
}

}  // namespace netgraph::auth
