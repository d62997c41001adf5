#include "fcgi/pool/outbox_relay_process.h"

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <string>

#include "core/domain/outbox_relay.h"
#include "core/log.h"
#include "daemon/signals.h"

namespace netgraph::fcgi {
namespace {

volatile std::sig_atomic_t g_stop = 0;

void OnStopSignal(int) { g_stop = 1; }

// Sleeps up to `duration`; a signal ends the sleep early.
void Pause(std::chrono::milliseconds duration) {
  ::poll(nullptr, 0, static_cast<int>(duration.count()));
}

using Clock = std::chrono::steady_clock;

// Waits up to `timeout` as OutboxRelay::AwaitAppend does, then invalidates what was heard at once:
// the public data (an append is a change of the graph), the portfolios and the user rows named.
// True when an append was heard.
Result<bool> AwaitChanges(domain::OutboxRelay& relay, api::Service& service,
                          std::chrono::milliseconds timeout) {
  domain::OutboxRelay::Changes changes;
  Result<bool> appended = relay.AwaitAppend(timeout, &changes);
  if (changes.data || (appended.ok() && *appended)) service.NoteDataChanged();
  if (changes.all) service.NoteAllPortfoliosChanged();
  for (std::int64_t user_id : changes.users) service.NotePortfolioChanged(user_id);
  if (changes.all_rows) service.NoteAllUserRowsChanged();
  for (std::int64_t user_id : changes.user_rows) service.NoteUserRowChanged(user_id);
  return appended;
}

// Announcements may have gone unheard: every cache the generations guard reads again.
void NoteEverythingMayHaveChanged(api::Service& service) {
  service.NoteDataChanged();
  service.NoteAllPortfoliosChanged();
  service.NoteAllUserRowsChanged();
}

// Sleeps `duration` (a back-off) while still invalidating the workers' read caches at every
// change announced meanwhile: a Redis outage must not make reads stale. When PostgreSQL is what
// failed there is nothing to hear; a signal ends the sleep early.
void SleepNotingChanges(domain::OutboxRelay& relay, api::Service& service,
                        std::chrono::milliseconds duration) {
  const Clock::time_point end = Clock::now() + duration;
  while (g_stop == 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
    if (left.count() <= 0) return;
    if (!AwaitChanges(relay, service, left).ok()) {
      Pause(left);
      return;
    }
  }
}

void Run(domain::OutboxRelay& relay, api::Service& service, Scoreboard* scoreboard) {
  const domain::RelayOptions& options = relay.options();
  std::chrono::milliseconds backoff{0};
  Clock::time_point next_housekeeping = Clock::now();
  std::string last_problem;  // logged once per change, not once per retry
  bool listened = false;     // a pass has reached PostgreSQL since the process started
  // The database sessions listened in so far: a connection lost and opened again between two
  // waits (the store reconnects by itself) went unheard meanwhile.
  std::uint64_t sessions_heard = 0;
  const auto note_reconnection = [&] {
    const std::uint64_t sessions = service.database().sessions();
    if (listened && sessions != sessions_heard) NoteEverythingMayHaveChanged(service);
    sessions_heard = sessions;
  };
  while (g_stop == 0) {
    std::string problem;
    bool more_pending = false;
    Result<domain::OutboxRelay::Pass> pass = relay.PublishPending();
    if (pass.ok() && (!listened || !pass->new_epoch.empty())) {
      // Changes committed before this process listened (while the relay before it was down, or
      // restarting) went unheard, and a rewound database (restored from a dump) announces none:
      // the workers' caches may hold answers older than the data.
      NoteEverythingMayHaveChanged(service);
      listened = true;
    }
    note_reconnection();
    if (!pass.ok()) {
      problem = "PostgreSQL: " + pass.status().message();
    } else if (!pass->redis.ok()) {
      problem = pass->redis.message();
    } else {
      more_pending = pass->more_pending;
    }
    if (pass.ok() && scoreboard != nullptr) scoreboard->RecordRelayPass(pass->lags, pass->backlog);
    if (problem != last_problem) {
      if (!problem.empty()) log::Warn("relay: " + problem + "; retrying with back-off");
      if (problem.empty()) {
        log::Info("relay: publishing again");
        // Changes announced while the connection was down went unheard.
        NoteEverythingMayHaveChanged(service);
      }
      last_problem = problem;
    }
    if (!problem.empty()) {
      backoff = std::clamp(backoff * 2, std::chrono::milliseconds(100), options.max_backoff);
      SleepNotingChanges(relay, service, backoff);
      continue;
    }
    backoff = std::chrono::milliseconds(0);
    if (more_pending) continue;
    if (Clock::now() >= next_housekeeping) {
      relay.Housekeeping();
      next_housekeeping = Clock::now() + options.housekeeping_interval;
    }
    // Until an append is heard, or the poll interval has passed: the changes heard meanwhile (a
    // claim's, most of them) only invalidate, and need no pass.
    const Clock::time_point poll_at = Clock::now() + options.poll_interval;
    while (g_stop == 0) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(poll_at - Clock::now());
      if (left.count() <= 0) break;
      Result<bool> appended = AwaitChanges(relay, service, left);
      note_reconnection();
      if (!appended.ok()) {
        Pause(left);
        break;
      }
      if (*appended) break;
    }
  }
}

}  // namespace

int RunOutboxRelayProcess(api::Service& service, Scoreboard* scoreboard) {
  // Without SA_RESTART: the signal ends the wait for a commit, so the relay stops at once.
  Status signals = daemon::HandleSignals({SIGTERM, SIGINT, SIGQUIT}, OnStopSignal,
                                         daemon::AfterSignal::kInterrupt);
  if (signals.ok()) signals = daemon::IgnoreSignals({SIGPIPE, SIGHUP});
  if (!signals.ok()) {
    log::Error("relay: " + signals.message());
    return 1;
  }
  log::Info("relay: publishing graph changes from the outbox to Redis");
  if (!service.updates().signing()) {
    log::Warn(std::string("relay: ") + domain::kUpdateSigningKeyFileVariable +
              "=off: updates go out unsigned, and anyone who can publish on Redis can forge them");
  }
  domain::OutboxRelay relay(service.database(), service.redis(), service.updates(),
                            service.relay_options());
  Run(relay, service, scoreboard);
  log::Info("relay: stopped");
  return 0;
}

}  // namespace netgraph::fcgi
