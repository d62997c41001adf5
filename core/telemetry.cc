#include "core/telemetry.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <utility>

namespace netgraph::telemetry {
namespace {

std::array<std::atomic<std::uint64_t>, kCounterCount> g_own_counters{};
std::atomic<std::uint64_t>* g_counters = g_own_counters.data();

// The counters defined, by slot. Filled before main (Counter's constructor), read after.
struct Registry {
  std::array<CounterSpec, kCounterCount> specs;
  std::size_t size = 0;
};
Registry& Counters() {
  static Registry registry;
  return registry;
}

struct ProfileState {
  bool active = false;
  std::chrono::nanoseconds database{0};
  std::size_t statements = 0;
  std::vector<RequestProfile::Resolver> resolvers;
};
// Per thread: netgraph-ws runs statements on several database threads (without a profile).
thread_local ProfileState g_profile;

}  // namespace

Counter::Counter(const CounterSpec& spec) {
  Registry& registry = Counters();
  if (registry.size == kCounterCount) {
    std::fprintf(stderr, "netgraph: more than %zu counters (core/telemetry.h)\n", kCounterCount);
    std::abort();
  }
  slot_ = registry.size;
  registry.specs[registry.size++] = spec;
}

void Counter::Add(std::uint64_t amount) const {
  g_counters[slot_].fetch_add(amount, std::memory_order_relaxed);
}

void Counter::Set(std::uint64_t value) const {
  g_counters[slot_].store(value, std::memory_order_relaxed);
}

std::uint64_t Counter::Read() const { return g_counters[slot_].load(std::memory_order_relaxed); }

void UseCounterStorage(std::atomic<std::uint64_t>* storage) {
  g_counters = storage != nullptr ? storage : g_own_counters.data();
}

void AppendCounters(std::string& out, std::span<const std::uint64_t> values) {
  const Registry& registry = Counters();
  std::array<bool, kCounterCount> written{};
  for (std::size_t first = 0; first < registry.size; ++first) {
    if (written[first]) continue;
    const CounterSpec& family = registry.specs[first];
    AppendFamily(out, family.family, family.type == MetricType::kGauge ? "gauge" : "counter",
                 family.help);
    for (std::size_t slot = first; slot < registry.size; ++slot) {
      if (registry.specs[slot].family != family.family) continue;
      written[slot] = true;
      AppendSample(out, family.family, registry.specs[slot].labels,
                   slot < values.size() ? values[slot] : 0);
    }
  }
}

std::size_t BucketIndex(std::span<const double> bounds, double seconds) {
  std::size_t bucket = 0;
  while (bucket < bounds.size() && seconds > bounds[bucket]) ++bucket;
  return bucket;
}

std::string FormatSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", seconds);
  return text;
}

void AppendFamily(std::string& out, std::string_view name, std::string_view type,
                  std::string_view help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n# TYPE ");
  out.append(name).append(" ").append(type).append("\n");
}

void AppendLabel(std::string& labels, std::string_view name, std::string_view value) {
  if (!labels.empty()) labels.push_back(',');
  labels.append(name).append("=\"");
  for (char c : value) {
    switch (c) {
      case '\\':
        labels.append("\\\\");
        break;
      case '"':
        labels.append("\\\"");
        break;
      case '\n':
        labels.append("\\n");
        break;
      default:
        labels.push_back(c);
    }
  }
  labels.push_back('"');
}

void AppendSample(std::string& out, std::string_view name, std::string_view labels,
                  std::string_view value) {
  out.append(name);
  if (!labels.empty()) out.append("{").append(labels).append("}");
  out.append(" ").append(value).append("\n");
}

void AppendHistogram(std::string& out, std::string_view name, std::string_view labels,
                     std::span<const double> bounds, std::span<const std::uint64_t> counts,
                     double sum_seconds) {
  const std::string prefix = labels.empty() ? std::string() : std::string(labels) + ",";
  std::uint64_t cumulative = 0;
  for (std::size_t b = 0; b <= bounds.size() && b < counts.size(); ++b) {
    cumulative += counts[b];
    const std::string le = b < bounds.size() ? FormatSeconds(bounds[b]) : "+Inf";
    out.append(name).append("_bucket{").append(prefix).append("le=\"").append(le);
    out.append("\"} ").append(std::to_string(cumulative)).append("\n");
  }
  const std::string braced = labels.empty() ? std::string() : "{" + std::string(labels) + "}";
  out.append(name).append("_sum").append(braced).append(" ");
  out.append(FormatSeconds(sum_seconds)).append("\n");
  out.append(name).append("_count").append(braced).append(" ");
  out.append(std::to_string(cumulative)).append("\n");
}

std::string FormatUtc(std::int64_t unix_ms) {
  // Every access line carries the time, and the date and time to the second change once a second:
  // they are formatted again only then, the milliseconds each time.
  thread_local std::int64_t formatted_second = std::numeric_limits<std::int64_t>::min();
  thread_local char second_text[64] = {};
  std::int64_t second = unix_ms / 1000;
  std::int64_t millisecond = unix_ms % 1000;
  if (millisecond < 0) {
    --second;
    millisecond += 1000;
  }
  if (second != formatted_second) {
    const auto seconds = static_cast<std::time_t>(second);
    std::tm utc{};
    ::gmtime_r(&seconds, &utc);
    std::snprintf(second_text, sizeof(second_text), "%04d-%02d-%02dT%02d:%02d:%02d.",
                  utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min,
                  utc.tm_sec);
    formatted_second = second;
  }
  std::string text(second_text);
  text.push_back(static_cast<char>('0' + millisecond / 100));
  text.push_back(static_cast<char>('0' + millisecond / 10 % 10));
  text.push_back(static_cast<char>('0' + millisecond % 10));
  text.push_back('Z');
  return text;
}

std::string NowUtc() {
  return FormatUtc(std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count());
}

void RequestProfile::End() { g_profile.active = false; }

void RequestProfile::Begin() {
  g_profile.active = true;
  g_profile.database = std::chrono::nanoseconds(0);
  g_profile.statements = 0;
  g_profile.resolvers.clear();
}

bool RequestProfile::Active() { return g_profile.active; }

void RequestProfile::AddDatabaseTime(std::chrono::nanoseconds elapsed) {
  if (!g_profile.active) return;
  g_profile.database += elapsed;
  ++g_profile.statements;
}

std::chrono::nanoseconds RequestProfile::DatabaseTime() { return g_profile.database; }
std::size_t RequestProfile::Statements() { return g_profile.statements; }

void RequestProfile::AddResolver(Resolver resolver) {
  if (!g_profile.active) return;
  g_profile.resolvers.push_back(std::move(resolver));
}

const std::vector<RequestProfile::Resolver>& RequestProfile::Resolvers() {
  return g_profile.resolvers;
}

}  // namespace netgraph::telemetry
