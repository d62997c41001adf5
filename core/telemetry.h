// Storage and exposition of the process-wide counters that code deep in the core bumps without
// knowing who reports them; each concern defines its own (the document cache's in core/graphql,
// the PostgreSQL and Redis clients' in core/store, the token refusals in core/auth, the read
// cache's in core/api) as Counter objects with what /metrics shows of them. Also the database time
// of the request in progress, for the slow log.
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

enum class MetricType { kCounter, kGauge };

// What /metrics shows of one counter: its family's name, type and help (the same for every
// counter of the family), and the sample's labels (`reason="expired"`; empty for none).
struct CounterSpec {
  std::string_view family;
  MetricType type = MetricType::kCounter;
  std::string_view help;
  std::string_view labels;
};

// The most counters a process defines: the length of a counter storage array.
inline constexpr std::size_t kCounterCount = 32;

// One number a concern keeps: a count, or a gauge of what it holds now. Define each as an object
// of static storage duration in the concern that owns it (`spec`'s texts must outlive it): it
// takes the next storage slot when the program starts, in an order fixed per binary, so the
// processes of one pool agree on every slot. More than kCounterCount counters abort at start.
class Counter {
 public:
  explicit Counter(const CounterSpec& spec);
  Counter(const Counter&) = delete;
  Counter& operator=(const Counter&) = delete;

  void Add(std::uint64_t amount = 1) const;
  void Set(std::uint64_t value) const;
  std::uint64_t Read() const;
  // The counter's index in a storage array.
  std::size_t slot() const { return slot_; }

 private:
  std::size_t slot_;
};

// Where the counters are kept from now on: kCounterCount atomics that outlive the process's use;
// null: the process's own memory again.
void UseCounterStorage(std::atomic<std::uint64_t>* storage);

// Appends every counter the program defines, by family (HELP and TYPE once, then its samples),
// each sample's value `values[counter.slot()]` (values.size() == kCounterCount): e.g. the sums of
// a pool's storage arrays.
void AppendCounters(std::string& out, std::span<const std::uint64_t> values);

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
