#include "daemon/signals.h"

#include <csignal>
#include <cstring>
#include <string>

namespace netgraph::daemon {
namespace {

Status SetDisposition(std::initializer_list<int> signals, void (*handler)(int), int flags) {
  struct sigaction action {};
  action.sa_handler = handler;
  action.sa_flags = flags;
  sigemptyset(&action.sa_mask);
  for (int s : signals) {
    if (::sigaction(s, &action, nullptr) != 0) {
      return Status::Internal("setting the disposition of signal " + std::to_string(s) + " (" +
                              ::strsignal(s) + "): " + std::strerror(errno));
    }
  }
  return Status::Ok();
}

}  // namespace

Status HandleSignals(std::initializer_list<int> signals, void (*handler)(int), AfterSignal after) {
  return SetDisposition(signals, handler, after == AfterSignal::kResume ? SA_RESTART : 0);
}

Status IgnoreSignals(std::initializer_list<int> signals) {
  return SetDisposition(signals, SIG_IGN, 0);
}

Status DefaultSignals(std::initializer_list<int> signals) {
  return SetDisposition(signals, SIG_DFL, 0);
}

}  // namespace netgraph::daemon
