// Signal dispositions for the daemons' processes (the pool's master and workers, the relay), set
// with sigaction(2) so they behave the same on every libc: no SA_RESETHAND, nothing blocked while a
// handler runs beyond the signal itself. Each returns an error naming the first signal
// sigaction(2) refused (the ones before it are set).
#ifndef NETGRAPH_DAEMON_SIGNALS_H_
#define NETGRAPH_DAEMON_SIGNALS_H_

#include <initializer_list>

#include "core/status.h"

namespace netgraph::daemon {

// What a system call that a handled signal interrupts does afterwards.
enum class AfterSignal {
  kResume,     // SA_RESTART: it carries on (libraries that do not expect EINTR stay correct)
  kInterrupt,  // it fails with EINTR: a wait (poll, sleep) ends early, so a stop is seen at once
};

// Runs `handler` for each of `signals`. The handler must be async-signal-safe.
Status HandleSignals(std::initializer_list<int> signals, void (*handler)(int), AfterSignal after);
// The process does not see `signals` (SIGPIPE: a closed peer shows as EPIPE instead).
Status IgnoreSignals(std::initializer_list<int> signals);
// Back to the default action, e.g. in a forked child before it sets its own.
Status DefaultSignals(std::initializer_list<int> signals);

}  // namespace netgraph::daemon

#endif  // NETGRAPH_DAEMON_SIGNALS_H_
