// The pool's scoreboard, after php-fpm's: a part of the pool's shared memory
// (fcgi/pool/shared_memory.h), which the master maps before forking, with a slot per child
// process. Each child writes only its own slot (lock-free: relaxed atomics,
// and a sequence counter around the fields of the request in progress); whoever answers a scrape
// (/status, /metrics: any worker) or the master (the request deadline) reads every slot.
//
// A slot holds the child's pid and state, and for a busy worker what it is doing (operation type,
// name, root fields, request id, start time). It also holds counters that are never reset: when a
// child dies, the master frees its slot, and the next child that takes it goes on adding to the
// same counters, so the sums over all slots only grow, as Prometheus counters must. Never the
// variables or the token of a request.
//
// Sized at creation for the most children the pool can ever have (kMaxSlots); a slot is a few KB
// and pages of slots never used are never touched.
#ifndef NETGRAPH_FCGI_POOL_SCOREBOARD_H_
#define NETGRAPH_FCGI_POOL_SCOREBOARD_H_

#include <sys/types.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/telemetry.h"
#include "fcgi/pool/atomic_text.h"
#include "fcgi/pool/shared_memory.h"

namespace netgraph::fcgi {

// Every worker (at most 1024, main.cc) plus the relay plus the workers a rolling restart has
// started before their predecessors went.
constexpr std::size_t kMaxScoreboardSlots = 2048 + 8;

enum class SlotState : std::uint32_t { kFree, kStarting, kIdle, kBusy, kRelay };
std::string_view SlotStateName(SlotState state);

// The operation type label of a request: what the histograms and the counters are split by.
enum class OperationKind : std::uint32_t { kNone, kQuery, kMutation, kSubscription, kCount };
std::string_view OperationKindName(OperationKind kind);

// Why the master replaced a child: the label of netgraph_pool_child_restarts_total.
enum class RestartCause : std::uint32_t { kRecycled, kExited, kSignal, kDeadline, kCount };
std::string_view RestartCauseName(RestartCause cause);

// Upper bounds of the latency histogram buckets, in seconds (+Inf is implied).
constexpr std::array<double, 13> kLatencyBuckets = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                                    0.25,  0.5,    1,     2.5,  5,     10};

constexpr std::size_t kOperationKinds = static_cast<std::size_t>(OperationKind::kCount);
constexpr std::size_t kRestartCauses = static_cast<std::size_t>(RestartCause::kCount);

// One request as it is counted when it ends.
struct FinishedRequest {
  OperationKind kind = OperationKind::kNone;
  std::string_view root_field;  // the first root field, empty when unknown
  std::string_view outcome;     // ok, graphql_error, failure, request_error
  std::string_view code;        // extensions.code, or the result object's error text
  int status = 200;
  std::chrono::nanoseconds duration{0};
};

// What a busy worker is doing, as a reader sees it.
struct SlotSnapshot {
  std::size_t index = 0;
  pid_t pid = 0;
  SlotState state = SlotState::kFree;
  std::uint64_t requests_served = 0;  // by the current process
  OperationKind kind = OperationKind::kNone;
  std::string operation_name;
  std::string root_fields;  // comma-separated
  std::string request_id;
  std::string path;
  std::int64_t started_unix_ms = 0;
  std::int64_t started_monotonic_ns = 0;
};

// The pool's counters summed over every slot ever used, free or not (counters outlive the
// processes that bumped them), and the children by state now: what /metrics shows
// (fcgi/pool/status_page.h).
struct ScoreboardTotals {
  std::size_t busy = 0;
  std::size_t idle = 0;
  std::array<std::uint64_t, kRestartCauses> restarts = {};             // by RestartCause
  std::array<std::uint64_t, telemetry::kCounterCount> telemetry = {};  // by Counter::slot()
  // GraphQL requests by label set (operation_type, root_field, outcome, code, status, as
  // Prometheus labels), and those beyond the label sets a slot keeps.
  std::map<std::string, std::uint64_t> requests;
  std::uint64_t requests_overflow = 0;
  // The latency histogram by OperationKind: a count per bucket of kLatencyBuckets and +Inf.
  std::array<std::array<std::uint64_t, kLatencyBuckets.size() + 1>, kOperationKinds>
      latency_buckets = {};
  std::array<std::uint64_t, kOperationKinds> latency_sum_ns = {};
  std::uint64_t outbox_published = 0;
  std::optional<std::uint64_t> outbox_backlog;  // only a live relay's
  std::array<std::uint64_t, telemetry::kUpdateLagBuckets.size() + 1> relay_lag_buckets = {};
  std::uint64_t relay_lag_sum_us = 0;
};

struct ScoreboardSlot;
struct ScoreboardHeader;

class Scoreboard {
 public:
  // The bytes of shared memory it takes.
  static std::size_t SharedBytes();
  // Takes its part of `memory` (fcgi/pool/shared_memory.h), which must outlive it.
  static Result<std::unique_ptr<Scoreboard>> Create(SharedMemory& memory);
  // A process attached to one of its slots counts in its own memory again.
  ~Scoreboard();
  Scoreboard(const Scoreboard&) = delete;
  Scoreboard& operator=(const Scoreboard&) = delete;

  // Master: a free slot for a child about to be forked (its index), or -1 when none is free. The
  // child learns its slot from AssignedSlot (set here, inherited through fork).
  int Reserve();
  // Master: the child forked into slot `index` is `pid`; or the fork failed (`pid` < 0) and the
  // slot is free again.
  void SetPid(int index, pid_t pid);
  // Master: `pid` is gone; its slot is free again.
  void Release(pid_t pid);
  // Master: counts a child replaced for `cause`.
  void CountRestart(RestartCause cause);

  // In the child: take the slot the master reserved, in `state`, with its counters as the
  // process's telemetry (core/telemetry.h).
  void Attach(SlotState state);
  // Worker, around each request. BeginRequest's path and request id are shown until EndRequest;
  // SetOperation adds the operation once it is known.
  void BeginRequest(std::string_view path, std::string_view request_id);
  void SetOperation(OperationKind kind, std::string_view name, std::string_view root_fields);
  void EndRequest(const FinishedRequest* graphql);  // null: not a GraphQL request

  // Relay: one pass published messages `lags` after their commits (one lag each) and left
  // `backlog` unpublished.
  void RecordRelayPass(std::span<const std::chrono::microseconds> lags, std::int64_t backlog);

  // Readers.
  std::vector<SlotSnapshot> Snapshot() const;
  ScoreboardTotals Totals() const;
  std::int64_t started_unix_ms() const;

 private:
  explicit Scoreboard(void* region) : region_(region) {}
  ScoreboardHeader& header() const;
  ScoreboardSlot& slot(std::size_t index) const;
  ScoreboardSlot& own() const;

  void* region_;
};

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_SCOREBOARD_H_
