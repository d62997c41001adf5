// Process-wide counters that code deep in the core (the document cache, the PostgreSQL and Redis
// clients, token verification) bumps without knowing who reports them, and the database time of
// the request in progress, for the slow log.
//
// By default the counters live in this process's memory (netgraph-ws reports them itself). A
// FastCGI worker points them at its slot of the pool's shared-memory scoreboard
// (fcgi/pool/scoreboard.h) with UseCounterStorage, so whichever worker answers a scrape reads
// everyone's. Each process is single-threaded where it counts, so a slot has one writer: relaxed
// atomics.
#ifndef NETGRAPH_CORE_TELEMETRY_H_
#define NETGRAPH_CORE_TELEMETRY_H_

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace netgraph::telemetry {

// Counters, except kDocumentCacheBytes and kReadCacheBytes, gauges (what the document cache and
// the read cache hold now).
enum class Counter : std::size_t {
  kDocumentCacheHits,
  kDocumentCacheMisses,
  kDocumentCacheEvictions,
  kDocumentCacheBytes,
  kPostgresErrors,       // statements or connection attempts that failed
  kPostgresConnects,     // connections opened (the first one, and each reconnect)
  kRedisErrors,          // commands or connection attempts that failed
  kRedisConnects,        // connections opened
  kJwtRefusedMalformed,  // not a JWT, bad base64url/JSON, oversized, bad header
  kJwtRefusedAlgorithm,  // alg not the configured one
  kJwtRefusedKey,        // unknown kid, or no key to choose
  kJwtRefusedSignature,  // the signature does not verify
  kJwtRefusedExpired,    // exp passed
  kJwtRefusedNotYetValid,
  kJwtRefusedClaims,  // iss, aud, sub or another required claim wrong or missing
  kReadCacheHits,     // public reads answered from the read cache (core/api/read_cache.h)
  kReadCacheMisses,   // public reads the read cache sent to PostgreSQL (while it is on)
  kReadCacheBytes,    // what the read cache holds, keys included
  kCount,
};
constexpr std::size_t kCounterCount = static_cast<std::size_t>(Counter::kCount);

// The token refusal counters and the reason each stands for (the label /metrics gives it).
constexpr std::pair<std::string_view, Counter> kJwtRefusalReasons[] = {
    {"malformed", Counter::kJwtRefusedMalformed},
    {"algorithm", Counter::kJwtRefusedAlgorithm},
    {"unknown_key", Counter::kJwtRefusedKey},
    {"signature", Counter::kJwtRefusedSignature},
    {"expired", Counter::kJwtRefusedExpired},
    {"not_yet_valid", Counter::kJwtRefusedNotYetValid},
    {"claims", Counter::kJwtRefusedClaims},
};

// Where the counters are kept from now on: kCounterCount atomics that outlive the process's use;
// null: the process's own memory again.
void UseCounterStorage(std::atomic<std::uint64_t>* storage);
void Add(Counter counter, std::uint64_t amount = 1);
void Set(Counter counter, std::uint64_t value);
std::uint64_t Read(Counter counter);

// Upper bounds, in seconds, of the buckets of the update lags: the relay's (commit to publish) and
// netgraph-ws's (commit to send). Milliseconds normally; minutes while Redis is down.
constexpr std::array<double, 14> kUpdateLagBuckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                                      1,     2.5,  5,     10,   30,  60,   300};

// The bucket of `seconds` among `bounds` (ascending upper bounds): the first bound at or above
// it, or bounds.size() (+Inf).
std::size_t BucketIndex(std::span<const double> bounds, double seconds);
// Appends a metric family's HELP and TYPE lines (Prometheus text format).
void AppendFamily(std::string& out, std::string_view name, std::string_view type,
                  std::string_view help);
// Appends `name="value"` to a sample's label set `labels` (after a comma unless it is empty), the
// value escaped as the text format requires: backslash, double quote and line feed as \\, \" and
// \n. Whatever a label's value holds, it cannot end the label or the line early (and so forge
// another label or sample).
void AppendLabel(std::string& labels, std::string_view name, std::string_view value);
// Appends one sample: `name{labels} value`, without braces when `labels` is empty.
void AppendSample(std::string& out, std::string_view name, std::string_view labels,
                  std::string_view value);
template <typename Number>
void AppendSample(std::string& out, std::string_view name, std::string_view labels, Number value) {
  AppendSample(out, name, labels, std::string_view(std::to_string(value)));
}
// Appends the Prometheus text samples of one histogram series: `counts` has one count per bucket
// of `bounds` plus +Inf (not cumulative; this sums them), `labels` the series' other labels
// (may be empty). The family's HELP and TYPE lines are the caller's.
void AppendHistogram(std::string& out, std::string_view name, std::string_view labels,
                     std::span<const double> bounds, std::span<const std::uint64_t> counts,
                     double sum_seconds);
// A number of seconds as Prometheus text ("0.0025").
std::string FormatSeconds(double seconds);

// "2026-11-26T15:27:56.123Z" for milliseconds since the epoch: the time of log lines.
std::string FormatUtc(std::int64_t unix_ms);
std::string NowUtc();

// The counter for a token refusal, from the verifier's message (core/auth/token_verifier.cc).
Counter JwtRefusalCounter(std::string_view message);

// Where a request's time went: what the slow log prints. Begin at the start of a request; the
// store adds each statement's time (AddDatabaseTime), the API notes each root field's resolver.
class RequestProfile {
 public:
  struct Resolver {
    std::string field;
    std::chrono::nanoseconds total{0};
    std::chrono::nanoseconds database{0};
  };

  // Nothing is recorded outside Begin and End: a worker begins a profile only when the slow log
  // is on, and netgraph-ws runs queries without one. Whoever times something for the profile
  // checks Active() first, so that without one it reads no clock.
  static void Begin();
  static void End();
  static bool Active();
  static void AddDatabaseTime(std::chrono::nanoseconds elapsed);
  // The database time so far in this request.
  static std::chrono::nanoseconds DatabaseTime();
  static std::size_t Statements();
  static void AddResolver(Resolver resolver);
  static const std::vector<Resolver>& Resolvers();
};

}  // namespace netgraph::telemetry

#endif  // NETGRAPH_CORE_TELEMETRY_H_
