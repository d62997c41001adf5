#include "daemon/signals.h"

#include <csignal>

namespace netgraph::daemon {
namespace {

void SetDisposition(std::initializer_list<int> signals, void (*handler)(int), int flags) {
  struct sigaction action {};
  action.sa_handler = handler;
  action.sa_flags = flags;
  sigemptyset(&action.sa_mask);
  for (int s : signals) ::sigaction(s, &action, nullptr);
}

}  // namespace

void HandleSignals(std::initializer_list<int> signals, void (*handler)(int), AfterSignal after) {
  SetDisposition(signals, handler, after == AfterSignal::kResume ? SA_RESTART : 0);
}

void IgnoreSignals(std::initializer_list<int> signals) { SetDisposition(signals, SIG_IGN, 0); }

void DefaultSignals(std::initializer_list<int> signals) { SetDisposition(signals, SIG_DFL, 0); }

}  // namespace netgraph::daemon
