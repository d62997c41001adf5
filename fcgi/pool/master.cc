#include "fcgi/pool/master.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>

#include "core/log.h"
#include "daemon/signals.h"
#include "daemon/systemd_notify.h"

namespace netgraph::fcgi {
namespace {

int g_signal_pipe[2] = {-1, -1};

void OnSignal(int signal_number) {
  int saved_errno = errno;
  unsigned char byte = static_cast<unsigned char>(signal_number);
  (void)!::write(g_signal_pipe[1], &byte, 1);
  errno = saved_errno;
}

// The master's signals, as one list so a forked child resets exactly these.
constexpr std::initializer_list<int> kHandledSignals = {SIGCHLD, SIGTERM, SIGINT, SIGQUIT, SIGHUP};

sigset_t HandledSignalSet() {
  sigset_t set;
  sigemptyset(&set);
  for (int signal : kHandledSignals) sigaddset(&set, signal);
  return set;
}

Status InstallHandlers() {
  if (::pipe2(g_signal_pipe, O_NONBLOCK | O_CLOEXEC) != 0) {
    return Status::Internal(std::string("the master's signal pipe: ") + std::strerror(errno));
  }
  return daemon::HandleSignals(kHandledSignals, OnSignal, daemon::AfterSignal::kResume);
}

// What a forked worker starts from: default dispositions, none of the master's plumbing, the
// signal mask it had before the fork (`mask`), and an end when `master` ends. Outside systemd
// nothing else stops the workers of a master that was killed: they would go on serving the
// inherited socket unsupervised. SIGTERM lets a worker finish the request in hand.
void ResetInChild(pid_t master, const sigset_t& mask) {
  if (Status reset = daemon::DefaultSignals(kHandledSignals); !reset.ok()) {
    log::Error("child: " + reset.message());
    ::_exit(1);
  }
  ::close(g_signal_pipe[0]);
  ::close(g_signal_pipe[1]);
  // A signal sent to the child since the fork has waited, blocked; it comes now, to the default
  // disposition, never to the master's handler copied into this child.
  ::sigprocmask(SIG_SETMASK, &mask, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  // A master that died before prctl() can no longer signal its death; the child was re-parented.
  if (::getppid() != master) ::_exit(1);
}

std::string DescribeExit(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return std::string("was killed by signal ") + ::strsignal(WTERMSIG(status));
  return "stopped";
}

}  // namespace

PreforkMaster::PreforkMaster(PoolPlan plan, Reconfigure reconfigure)
    : PreforkMaster(std::move(plan), std::move(reconfigure), Seams()) {}

PreforkMaster::PreforkMaster(PoolPlan plan, Reconfigure reconfigure, Seams seams)
    : options_(plan.options),
      roles_(std::move(plan.roles)),
      reconfigure_(std::move(reconfigure)),
      seams_(seams) {
  for (const ChildRole& role : roles_) {
    Slot slot;
    slot.role = &role;
    slots_.insert(slots_.end(), static_cast<std::size_t>(role.count), slot);
  }
}

void PreforkMaster::Spawn(int index) {
  const pid_t master = ::getpid();
  const int scoreboard_slot = options_.scoreboard != nullptr ? options_.scoreboard->Reserve() : -1;
  // The handled signals stay blocked from before the fork until the child has reset their
  // dispositions: one that came in between would run the master's handler in the child and be
  // written into the master's pipe as if the master had got it (a SIGTERM meant for the new child
  // would stop the pool). Blocked, it waits: the child gets it with the default action, the master
  // once its mask is back.
  const sigset_t handled = HandledSignalSet();
  sigset_t previous;
  ::sigprocmask(SIG_BLOCK, &handled, &previous);
  pid_t pid = ::fork();
  if (pid != 0) ::sigprocmask(SIG_SETMASK, &previous, nullptr);
  if (pid < 0) {
    log::Error(std::string("fork failed: ") + std::strerror(errno));
    if (options_.scoreboard != nullptr) options_.scoreboard->SetPid(scoreboard_slot, pid);
    slots_[static_cast<std::size_t>(index)].respawn_at = Clock::now() + std::chrono::seconds(1);
    return;
  }
  Slot& slot = slots_[static_cast<std::size_t>(index)];
  if (pid == 0) {
    if (seams_.child_forked != nullptr) seams_.child_forked();
    ResetInChild(master, previous);
    ::_exit(slot.role->main());
  }
  slot.pid = pid;
  slot.generation = generation_;
  slot.started = Clock::now();
  if (options_.scoreboard != nullptr) options_.scoreboard->SetPid(scoreboard_slot, pid);
  log::Info(slot.role->name + " started as pid " + std::to_string(pid));
}

void PreforkMaster::Reap() {
  int status = 0;
  pid_t pid;
  while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
    const bool timed_out = timed_out_.erase(pid) > 0;
    if (options_.scoreboard != nullptr) options_.scoreboard->Release(pid);
    if (auto retired = retiring_.find(pid); retired != retiring_.end()) {
      retiring_.erase(retired);
      log::Info("retired pid " + std::to_string(pid) + " " + DescribeExit(status));
      continue;
    }
    auto slot =
        std::find_if(slots_.begin(), slots_.end(), [pid](const Slot& s) { return s.pid == pid; });
    if (slot == slots_.end()) continue;
    slot->pid = 0;
    if (stopping_) continue;
    log::Warn(slot->role->name + " pid " + std::to_string(pid) + " " + DescribeExit(status) +
              "; replacing it");
    if (options_.scoreboard != nullptr) {
      options_.scoreboard->CountRestart(timed_out ? RestartCause::kDeadline
                                        : WIFEXITED(status) && WEXITSTATUS(status) == 0
                                            ? RestartCause::kRecycled
                                        : WIFEXITED(status) ? RestartCause::kExited
                                                            : RestartCause::kSignal);
    }
    const bool died_young = Clock::now() - slot->started < std::chrono::seconds(1);
    slot->rapid_failures = died_young ? slot->rapid_failures + 1 : 0;
    const int shift = std::min(slot->rapid_failures, 6);
    const auto delay = died_young ? std::min(std::chrono::milliseconds(100 << shift),
                                             std::chrono::milliseconds(5000))
                                  : std::chrono::milliseconds(0);
    slot->respawn_at = Clock::now() + delay;
  }
}

void PreforkMaster::RespawnDueSlots() {
  if (stopping_) return;
  const auto now = Clock::now();
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].pid == 0 && slots_[i].respawn_at <= now) Spawn(static_cast<int>(i));
  }
}

void PreforkMaster::BeginStop() {
  if (stopping_) return;
  stopping_ = true;
  stop_deadline_ = Clock::now() + options_.shutdown_timeout;
  daemon::NotifySystemd("STOPPING=1");
  log::Info("stopping: asking children to finish their work");
  for (const Slot& slot : slots_) {
    if (slot.pid > 0) ::kill(slot.pid, SIGTERM);
  }
  for (const auto& [pid, index] : retiring_) ::kill(pid, SIGTERM);
}

void PreforkMaster::BeginReload() {
  if (stopping_) return;
  daemon::NotifySystemd("RELOADING=1");
  if (reconfigure_) {
    log::Info("reloading: reading the configuration again");
    Result<PoolPlan> plan = reconfigure_();
    if (!plan.ok()) {
      log::Error(
          "reload refused, the running children keep serving with the previous "
          "configuration: " +
          plan.status().message());
      daemon::NotifySystemd("READY=1");
      return;
    }
    Adopt(std::move(plan.value()));
  } else {
    ++generation_;
  }
  // A reload during a reload starts over with the newest plan; children already of it stay.
  reload_queue_.clear();
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].pid > 0) reload_queue_.push_back(static_cast<int>(i));
  }
  reloading_ = true;
  log::Info("reloading: " + std::to_string(slots_.size()) + " children from now on; replacing " +
            std::to_string(reload_queue_.size()) + " one at a time");
  AdvanceReload();
}

void PreforkMaster::Adopt(PoolPlan plan) {
  std::vector<std::pair<std::string, Slot>> previous;
  for (const Slot& slot : slots_) previous.emplace_back(slot.role->name, slot);
  options_ = plan.options;
  roles_ = std::move(plan.roles);
  slots_.clear();
  ++generation_;
  for (const ChildRole& role : roles_) {
    int placed = 0;
    for (auto& [name, slot] : previous) {
      if (placed == role.count || name != role.name) continue;
      slot.role = &role;
      slots_.push_back(slot);
      name.clear();  // taken
      ++placed;
    }
    Slot fresh;  // respawn_at is in the past: RespawnDueSlots forks it at once
    fresh.role = &role;
    slots_.insert(slots_.end(), static_cast<std::size_t>(role.count - placed), fresh);
  }
  for (const auto& [name, slot] : previous) {
    if (name.empty() || slot.pid <= 0) continue;
    log::Info(name + " pid " + std::to_string(slot.pid) +
              " is beyond the new configuration's count; asking it to stop");
    retiring_[slot.pid] = -1;
    ::kill(slot.pid, SIGTERM);
  }
}

void PreforkMaster::AdvanceReload() {
  // One old child at a time: wait until the previous one has gone.
  if (stopping_ || !retiring_.empty()) return;
  while (!reload_queue_.empty()) {
    const int index = reload_queue_.front();
    reload_queue_.erase(reload_queue_.begin());
    Slot& slot = slots_[static_cast<std::size_t>(index)];
    // Died and respawned (or waiting to) meanwhile: that child is of the new plan already.
    if (slot.pid <= 0 || slot.generation == generation_) continue;
    const pid_t old = slot.pid;
    retiring_[old] = index;
    slot.pid = 0;  // should the fork fail, the slot is respawned like a dead child's
    Spawn(index);
    ::kill(old, SIGTERM);
    return;
  }
  if (reloading_) {
    reloading_ = false;
    log::Info("reload complete");
    daemon::NotifySystemd("READY=1\nSTATUS=" + std::to_string(slots_.size()) + " children");
  }
}

void PreforkMaster::EnforceRequestTimeout() {
  if (options_.scoreboard == nullptr || options_.request_timeout.count() <= 0) return;
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  const std::int64_t now_ns = static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
  const std::int64_t limit_ns =
      static_cast<std::int64_t>(options_.request_timeout.count()) * 1000000;
  for (const SlotSnapshot& busy : options_.scoreboard->Snapshot()) {
    if (busy.state != SlotState::kBusy || busy.pid <= 0 || timed_out_.count(busy.pid) > 0) continue;
    const std::int64_t elapsed_ns = now_ns - busy.started_monotonic_ns;
    if (elapsed_ns < limit_ns) continue;
    // Only the pool's own children: a slot's pid is the master's to trust, never a stale one.
    const bool ours =
        retiring_.count(busy.pid) > 0 ||
        std::any_of(slots_.begin(), slots_.end(), [&](const Slot& s) { return s.pid == busy.pid; });
    if (!ours) continue;
    log::Error("request timeout: killing worker pid " + std::to_string(busy.pid) + " after " +
               std::to_string(elapsed_ns / 1000000) + " ms on " +
               std::string(OperationKindName(busy.kind)) + " \"" + busy.operation_name +
               "\" (root fields: " + busy.root_fields + ", path " + busy.path + ", request id " +
               busy.request_id + ")");
    ::kill(busy.pid, SIGKILL);
    timed_out_.insert(busy.pid);
  }
}

bool PreforkMaster::HasChildren() const {
  return !retiring_.empty() ||
         std::any_of(slots_.begin(), slots_.end(), [](const Slot& s) { return s.pid > 0; });
}

int PreforkMaster::PollTimeoutMs() const {
  auto next = Clock::now() + std::chrono::seconds(1);
  if (stopping_ && !killed_) next = std::min(next, stop_deadline_);
  if (!stopping_) {
    for (const Slot& slot : slots_) {
      if (slot.pid == 0) next = std::min(next, slot.respawn_at);
    }
  }
  auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now()).count();
  return static_cast<int>(std::max<long long>(wait, 0));
}

int PreforkMaster::Run() {
  if (Status installed = InstallHandlers(); !installed.ok()) {
    log::Error("master: " + installed.message());
    return 1;
  }
  for (std::size_t i = 0; i < slots_.size(); ++i) Spawn(static_cast<int>(i));
  daemon::NotifySystemd("READY=1\nSTATUS=" + std::to_string(slots_.size()) + " children");

  while (!stopping_ || HasChildren()) {
    pollfd pfd{g_signal_pipe[0], POLLIN, 0};
    int ready = ::poll(&pfd, 1, PollTimeoutMs());
    if (ready > 0) {
      unsigned char signals[64];
      ssize_t n;
      while ((n = ::read(g_signal_pipe[0], signals, sizeof(signals))) > 0) {
        for (ssize_t i = 0; i < n; ++i) {
          switch (signals[i]) {
            case SIGCHLD:
              Reap();
              break;
            case SIGHUP:
              BeginReload();
              break;
            default:
              BeginStop();
              break;
          }
        }
      }
    }
    Reap();  // a SIGCHLD can coalesce with another; reaping is cheap
    AdvanceReload();
    RespawnDueSlots();
    EnforceRequestTimeout();
    if (stopping_ && !killed_ && Clock::now() >= stop_deadline_ && HasChildren()) {
      log::Warn("shutdown timeout: killing the children still running");
      for (const Slot& slot : slots_) {
        if (slot.pid > 0) ::kill(slot.pid, SIGKILL);
      }
      for (const auto& [pid, index] : retiring_) ::kill(pid, SIGKILL);
      killed_ = true;
    }
  }
  log::Info("stopped");
  return 0;
}

}  // namespace netgraph::fcgi
