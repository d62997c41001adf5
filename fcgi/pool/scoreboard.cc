#include "fcgi/pool/scoreboard.h"

#include <unistd.h>

#include <ctime>
#include <map>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

namespace netgraph::fcgi {
namespace {

constexpr std::size_t kKinds = kOperationKinds;
constexpr std::size_t kCauses = kRestartCauses;
constexpr std::size_t kBuckets = kLatencyBuckets.size() + 1;  // and +Inf
constexpr std::size_t kLagBuckets = telemetry::kUpdateLagBuckets.size() + 1;
// Distinct label sets of netgraph_graphql_requests_total one slot keeps; more go to one overflow
// series (the labels are bounded by the schema and the error vocabulary, far below this).
constexpr std::size_t kRequestSeries = 48;
constexpr std::size_t kLabelBytes = 192;

// Whichever slot the master reserved last before forking: in a child, its own.
int g_assigned_slot = -1;

std::int64_t NowNs(clockid_t clock) {
  timespec now{};
  ::clock_gettime(clock, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

using Counter = std::atomic<std::uint64_t>;

// Owner-only writes: a load and a store are enough, and cheaper than a locked add.
void Bump(Counter& counter, std::uint64_t amount = 1) {
  counter.store(counter.load(std::memory_order_relaxed) + amount, std::memory_order_relaxed);
}

}  // namespace

struct RequestSeries {
  std::atomic<std::uint32_t> used;  // set (release) once `labels` is written; never cleared
  AtomicText<kLabelBytes> labels;
  Counter count;
};

struct ScoreboardSlot {
  // Odd while the owner rewrites the request fields below it (a seqlock).
  std::atomic<std::uint32_t> sequence;
  std::atomic<std::int32_t> pid;
  std::atomic<std::uint32_t> state;
  Counter requests_served;
  std::atomic<std::uint32_t> kind;
  std::atomic<std::int64_t> started_unix_ms;
  std::atomic<std::int64_t> started_monotonic_ns;
  AtomicText<64> operation_name;
  AtomicText<128> root_fields;
  AtomicText<64> request_id;
  AtomicText<32> path;

  // Counters, cumulative over every process that held the slot.
  Counter telemetry[telemetry::kCounterCount];
  Counter latency_buckets[kKinds][kBuckets];
  Counter latency_sum_ns[kKinds];
  RequestSeries requests[kRequestSeries + 1];  // the last one: overflow

  // The outbox relay's figures (written by the relay's slot; the backlog is a gauge).
  Counter outbox_published;
  Counter outbox_backlog;
  Counter relay_lag_buckets[kLagBuckets];
  Counter relay_lag_sum_us;
};

struct ScoreboardHeader {
  std::atomic<std::int64_t> started_unix_ms;
  Counter restarts[kCauses];
};

static_assert(std::is_trivially_destructible_v<ScoreboardSlot>);

namespace {

constexpr std::size_t RegionBytes() {
  return sizeof(ScoreboardHeader) + kMaxScoreboardSlots * sizeof(ScoreboardSlot);
}

}  // namespace

std::string_view SlotStateName(SlotState state) {
  switch (state) {
    case SlotState::kFree:
      return "free";
    case SlotState::kStarting:
      return "starting";
    case SlotState::kIdle:
      return "idle";
    case SlotState::kBusy:
      return "busy";
    case SlotState::kRelay:
      return "relay";
  }
  return "free";
}

std::string_view OperationKindName(OperationKind kind) {
  switch (kind) {
    case OperationKind::kQuery:
      return "query";
    case OperationKind::kMutation:
      return "mutation";
    case OperationKind::kSubscription:
      return "subscription";
    default:
      return "none";
  }
}

std::string_view RestartCauseName(RestartCause cause) {
  switch (cause) {
    case RestartCause::kRecycled:
      return "recycled";
    case RestartCause::kExited:
      return "exited";
    case RestartCause::kSignal:
      return "signal";
    case RestartCause::kDeadline:
      return "deadline";
    default:
      return "exited";
  }
}

std::size_t Scoreboard::SharedBytes() { return RegionBytes(); }

Result<std::unique_ptr<Scoreboard>> Scoreboard::Create(SharedMemory& memory) {
  // Zeroed, which is every atomic's initial value: no constructor needs to run, and pages of slots
  // never used are never touched.
  NETGRAPH_ASSIGN_OR_RETURN(void* region, memory.Allocate(RegionBytes()));
  std::unique_ptr<Scoreboard> scoreboard(new Scoreboard(region));
  scoreboard->header().started_unix_ms.store(NowNs(CLOCK_REALTIME) / 1000000);
  return scoreboard;
}

Scoreboard::~Scoreboard() {
  if (g_assigned_slot >= 0) {
    telemetry::UseCounterStorage(nullptr);
    g_assigned_slot = -1;
  }
}

ScoreboardHeader& Scoreboard::header() const {
  return *std::launder(reinterpret_cast<ScoreboardHeader*>(region_));
}

ScoreboardSlot& Scoreboard::slot(std::size_t index) const {
  auto* slots =
      reinterpret_cast<ScoreboardSlot*>(static_cast<char*>(region_) + sizeof(ScoreboardHeader));
  return *std::launder(slots + index);
}

ScoreboardSlot& Scoreboard::own() const { return slot(static_cast<std::size_t>(g_assigned_slot)); }

std::int64_t Scoreboard::started_unix_ms() const { return header().started_unix_ms.load(); }

int Scoreboard::Reserve() {
  for (std::size_t i = 0; i < kMaxScoreboardSlots; ++i) {
    ScoreboardSlot& candidate = slot(i);
    if (candidate.state.load() != static_cast<std::uint32_t>(SlotState::kFree)) continue;
    candidate.pid.store(0);
    candidate.requests_served.store(0);
    candidate.state.store(static_cast<std::uint32_t>(SlotState::kStarting));
    g_assigned_slot = static_cast<int>(i);
    return g_assigned_slot;
  }
  return -1;
}

void Scoreboard::SetPid(int index, pid_t pid) {
  if (index < 0) return;
  ScoreboardSlot& reserved = slot(static_cast<std::size_t>(index));
  if (pid < 0) {
    reserved.state.store(static_cast<std::uint32_t>(SlotState::kFree));
    return;
  }
  reserved.pid.store(static_cast<std::int32_t>(pid));
}

void Scoreboard::Release(pid_t pid) {
  for (std::size_t i = 0; i < kMaxScoreboardSlots; ++i) {
    ScoreboardSlot& candidate = slot(i);
    if (candidate.state.load() == static_cast<std::uint32_t>(SlotState::kFree) ||
        candidate.pid.load() != pid) {
      continue;
    }
    candidate.pid.store(0);
    candidate.state.store(static_cast<std::uint32_t>(SlotState::kFree));
  }
}

void Scoreboard::CountRestart(RestartCause cause) {
  Bump(header().restarts[static_cast<std::size_t>(cause)]);
}

void Scoreboard::Attach(SlotState state) {
  if (g_assigned_slot < 0) return;
  ScoreboardSlot& mine = own();
  mine.pid.store(static_cast<std::int32_t>(::getpid()));
  mine.state.store(static_cast<std::uint32_t>(state));
  telemetry::UseCounterStorage(mine.telemetry);
}

void Scoreboard::BeginRequest(std::string_view path, std::string_view request_id) {
  if (g_assigned_slot < 0) return;
  ScoreboardSlot& mine = own();
  const std::uint32_t sequence = mine.sequence.load(std::memory_order_relaxed);
  mine.sequence.store(sequence + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  mine.kind.store(static_cast<std::uint32_t>(OperationKind::kNone), std::memory_order_relaxed);
  mine.operation_name.Store("");
  mine.root_fields.Store("");
  mine.request_id.Store(request_id);
  mine.path.Store(path);
  mine.started_unix_ms.store(NowNs(CLOCK_REALTIME) / 1000000, std::memory_order_relaxed);
  mine.started_monotonic_ns.store(NowNs(CLOCK_MONOTONIC), std::memory_order_relaxed);
  mine.state.store(static_cast<std::uint32_t>(SlotState::kBusy), std::memory_order_relaxed);
  mine.sequence.store(sequence + 2, std::memory_order_release);
}

void Scoreboard::SetOperation(OperationKind kind, std::string_view name,
                              std::string_view root_fields) {
  if (g_assigned_slot < 0) return;
  ScoreboardSlot& mine = own();
  const std::uint32_t sequence = mine.sequence.load(std::memory_order_relaxed);
  mine.sequence.store(sequence + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  mine.kind.store(static_cast<std::uint32_t>(kind), std::memory_order_relaxed);
  mine.operation_name.Store(name);
  mine.root_fields.Store(root_fields);
  mine.sequence.store(sequence + 2, std::memory_order_release);
}

void Scoreboard::EndRequest(const FinishedRequest* graphql) {
  if (g_assigned_slot < 0) return;
  ScoreboardSlot& mine = own();
  if (graphql != nullptr) {
    const auto kind = static_cast<std::size_t>(graphql->kind);
    const double seconds = std::chrono::duration<double>(graphql->duration).count();
    Bump(mine.latency_buckets[kind][telemetry::BucketIndex(kLatencyBuckets, seconds)]);
    Bump(mine.latency_sum_ns[kind], static_cast<std::uint64_t>(graphql->duration.count()));

    std::string labels;
    telemetry::AppendLabel(labels, "operation_type", OperationKindName(graphql->kind));
    telemetry::AppendLabel(labels, "root_field", graphql->root_field);
    telemetry::AppendLabel(labels, "outcome", graphql->outcome);
    telemetry::AppendLabel(labels, "code", graphql->code);
    telemetry::AppendLabel(labels, "status", std::to_string(graphql->status));
    RequestSeries* series = &mine.requests[kRequestSeries];
    if (labels.size() < kLabelBytes) {
      for (std::size_t i = 0; i < kRequestSeries; ++i) {
        RequestSeries& candidate = mine.requests[i];
        if (candidate.used.load(std::memory_order_relaxed) == 0) {
          candidate.labels.Store(labels);
          candidate.used.store(1, std::memory_order_release);
          series = &candidate;
          break;
        }
        if (candidate.labels.Equals(labels)) {
          series = &candidate;
          break;
        }
      }
    }
    Bump(series->count);
  }
  Bump(mine.requests_served);
  const std::uint32_t sequence = mine.sequence.load(std::memory_order_relaxed);
  mine.sequence.store(sequence + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  mine.state.store(static_cast<std::uint32_t>(SlotState::kIdle), std::memory_order_relaxed);
  mine.sequence.store(sequence + 2, std::memory_order_release);
}

void Scoreboard::RecordRelayPass(std::span<const std::chrono::microseconds> lags,
                                 std::int64_t backlog) {
  if (g_assigned_slot < 0) return;
  ScoreboardSlot& mine = own();
  for (std::chrono::microseconds lag : lags) {
    const double seconds = std::chrono::duration<double>(lag).count();
    Bump(mine.relay_lag_buckets[telemetry::BucketIndex(telemetry::kUpdateLagBuckets, seconds)]);
    Bump(mine.relay_lag_sum_us, static_cast<std::uint64_t>(lag.count()));
  }
  Bump(mine.outbox_published, lags.size());
  mine.outbox_backlog.store(static_cast<std::uint64_t>(backlog), std::memory_order_relaxed);
}

std::vector<SlotSnapshot> Scoreboard::Snapshot() const {
  std::vector<SlotSnapshot> snapshots;
  for (std::size_t i = 0; i < kMaxScoreboardSlots; ++i) {
    const ScoreboardSlot& source = slot(i);
    if (source.state.load() == static_cast<std::uint32_t>(SlotState::kFree)) continue;
    SlotSnapshot snapshot;
    // A seqlock read: retry while the owner is between two consistent states.
    for (int attempt = 0; attempt < 100; ++attempt) {
      const std::uint32_t before = source.sequence.load(std::memory_order_acquire);
      if (before % 2 != 0) continue;
      snapshot.index = i;
      snapshot.pid = source.pid.load(std::memory_order_relaxed);
      snapshot.state = static_cast<SlotState>(source.state.load(std::memory_order_relaxed));
      snapshot.requests_served = source.requests_served.load(std::memory_order_relaxed);
      snapshot.kind = static_cast<OperationKind>(source.kind.load(std::memory_order_relaxed));
      snapshot.operation_name = source.operation_name.Load();
      snapshot.root_fields = source.root_fields.Load();
      snapshot.request_id = source.request_id.Load();
      snapshot.path = source.path.Load();
      snapshot.started_unix_ms = source.started_unix_ms.load(std::memory_order_relaxed);
      snapshot.started_monotonic_ns = source.started_monotonic_ns.load(std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (source.sequence.load(std::memory_order_relaxed) == before) break;
    }
    if (snapshot.state == SlotState::kFree) continue;
    snapshots.push_back(std::move(snapshot));
  }
  return snapshots;
}

ScoreboardTotals Scoreboard::Totals() const {
  ScoreboardTotals totals;
  for (std::size_t c = 0; c < kCauses; ++c) {
    totals.restarts[c] = header().restarts[c].load(std::memory_order_relaxed);
  }
  for (std::size_t i = 0; i < kMaxScoreboardSlots; ++i) {
    const ScoreboardSlot& source = slot(i);
    const auto state = static_cast<SlotState>(source.state.load(std::memory_order_relaxed));
    if (state == SlotState::kBusy) ++totals.busy;
    if (state == SlotState::kIdle) ++totals.idle;
    if (state == SlotState::kRelay) {
      totals.outbox_backlog =
          totals.outbox_backlog.value_or(0) + source.outbox_backlog.load(std::memory_order_relaxed);
    }
    totals.outbox_published += source.outbox_published.load(std::memory_order_relaxed);
    for (std::size_t b = 0; b < kLagBuckets; ++b) {
      totals.relay_lag_buckets[b] += source.relay_lag_buckets[b].load(std::memory_order_relaxed);
    }
    totals.relay_lag_sum_us += source.relay_lag_sum_us.load(std::memory_order_relaxed);
    for (std::size_t c = 0; c < telemetry::kCounterCount; ++c) {
      totals.telemetry[c] += source.telemetry[c].load(std::memory_order_relaxed);
    }
    for (std::size_t k = 0; k < kKinds; ++k) {
      for (std::size_t b = 0; b < kBuckets; ++b) {
        totals.latency_buckets[k][b] +=
            source.latency_buckets[k][b].load(std::memory_order_relaxed);
      }
      totals.latency_sum_ns[k] += source.latency_sum_ns[k].load(std::memory_order_relaxed);
    }
    for (std::size_t s = 0; s < kRequestSeries; ++s) {
      const RequestSeries& series = source.requests[s];
      if (series.used.load(std::memory_order_acquire) == 0) break;
      totals.requests[series.labels.Load()] += series.count.load(std::memory_order_relaxed);
    }
    totals.requests_overflow +=
        source.requests[kRequestSeries].count.load(std::memory_order_relaxed);
  }
  return totals;
}

}  // namespace netgraph::fcgi
