#include "fcgi/pool/worker.h"

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <list>
#include <optional>
#include <string>

#include "core/log.h"
#include "daemon/signals.h"
#include "fcgi/fastcgi/connection.h"
#include "fcgi/http/routes.h"
#include "fcgi/pool/held_connections.h"
#include "fcgi/pool/serve.h"
#include "fcgi/pool/status_page.h"

namespace netgraph::fcgi {
namespace {

using fastcgi::Clock;
using fastcgi::Connection;
using fastcgi::NotePeerClosed;

volatile std::sig_atomic_t g_stop = 0;

void OnStop(int) { g_stop = 1; }

// The stop signals stay blocked except inside epoll_pwait(2): a stop that comes while a request
// runs is seen when the worker next waits, and one that comes while it waits ends the wait at once.
// Writes that mask to `waiting`.
Status InstallHandlers(sigset_t* waiting) {
  NETGRAPH_RETURN_IF_ERROR(
      daemon::HandleSignals({SIGTERM, SIGINT, SIGQUIT}, OnStop, daemon::AfterSignal::kInterrupt));
  NETGRAPH_RETURN_IF_ERROR(daemon::IgnoreSignals({SIGPIPE, SIGHUP, SIGUSR1}));
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  for (int signal : {SIGTERM, SIGINT, SIGQUIT}) sigaddset(&stop_signals, signal);
  ::sigprocmask(SIG_BLOCK, &stop_signals, waiting);
  for (int signal : {SIGTERM, SIGINT, SIGQUIT}) sigdelset(waiting, signal);
  return Status::Ok();
}

// While one of its connections is new or in the middle of a request, a worker leaves new
// connections to the others (as libfcgi's loop did, which read a whole request before accepting
// again), so that requests that arrive together are spread over idle workers. A request that
// takes longer than this to arrive stops holding new connections back, and so does any other
// while it lasts: nginx sends a request at once, so a peer this slow is not nginx, and must not
// slow down accepting nginx's connections. A new connection that has sent nothing gets less:
// nginx writes its request as soon as it has connected.
constexpr std::chrono::milliseconds kArrivalGrace{2000};
constexpr std::chrono::milliseconds kFirstBytesGrace{200};

// What the events of the listening socket and of the hand-off queue carry (a connection's carry
// the connection).
constexpr char kListenTag = 0;
constexpr char kTakeTag = 0;

// What a pass over the held connections found: when to wake, and whom a new connection may push
// out.
struct Sweep {
  std::optional<Clock::duration> hold_back;  // how long new connections are still left to others
  std::optional<Clock::time_point> next_deadline;
  std::list<Connection>::iterator longest_arriving;  // end() when no request is on its way
};

// Closes the connections whose peer has had its time, and finds what the next wait needs.
Sweep SweepConnections(HeldConnections& connections, const WorkerOptions& options,
                       Clock::time_point now) {
  std::list<Connection>& held = connections.list();
  Sweep sweep;
  sweep.longest_arriving = held.end();
  bool stalled = false;
  for (auto at = held.begin(); at != held.end();) {
    const std::optional<Clock::time_point> deadline =
        at->Deadline(options.io_timeout, options.idle_timeout);
    if (deadline && *deadline <= now) {
      NotePeerClosed(!at->output.empty() ? "its peer did not take its answer in time"
                     : at->arriving      ? "no whole request came in time"
                                         : "idle for longer than NETGRAPH_FCGI_IDLE_TIMEOUT_MS");
      at = connections.Close(at);
      continue;
    }
    if (deadline && (!sweep.next_deadline || *deadline < *sweep.next_deadline)) {
      sweep.next_deadline = deadline;
    }
    if (at->arriving) {
      const bool silent = at->input.empty() && !at->assembler.in_request();
      const Clock::duration left = at->since + (silent ? kFirstBytesGrace : kArrivalGrace) - now;
      if (left <= Clock::duration::zero()) stalled = true;
      if (left > Clock::duration::zero() && (!sweep.hold_back || left < *sweep.hold_back)) {
        sweep.hold_back = left;
      }
      if (sweep.longest_arriving == held.end() || at->since < sweep.longest_arriving->since) {
        sweep.longest_arriving = at;
      }
    }
    ++at;
  }
  if (stalled) sweep.hold_back.reset();
  return sweep;
}

// What one event of the wait asks for: a new connection, connections handed over, output a peer
// can take now, or a request's records to read.
void HandleEvent(const epoll_event& event, HeldConnections& connections, int listen_fd,
                 Clock::time_point woke) {
  if (event.data.ptr == &kListenTag) {
    const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) connections.Add(fd, true, woke);
    return;
  }
  if (event.data.ptr == &kTakeTag) {
    connections.TakeHandedOff(woke);
    return;
  }
  Connection& connection = *static_cast<Connection*>(event.data.ptr);
  if (connection.awaits_output) {
    if (!connection.output.Flush(connection.fd)) {
      connections.Close(connection);
      return;
    }
    if (!connection.output.empty()) return;
    if (connection.close_when_sent) {
      connections.Close(connection);
      return;
    }
    // Idle from now on, unless a request was on its way: that one keeps its deadline.
    if (!connection.arriving) connection.since = woke;
    // What came before the peer fell behind may hold the next request.
    if (!fastcgi::Assemble(connection, woke)) {
      connections.Close(connection);
      return;
    }
    connections.Update(connection);
    return;
  }
  connections.BeforeReading(connection);
  if (!fastcgi::Receive(connection, woke)) {
    connections.Close(connection);
    return;
  }
  connections.Update(connection);
}

int CeilMilliseconds(Clock::duration duration) {
  return static_cast<int>(
      std::max<std::int64_t>(std::chrono::ceil<std::chrono::milliseconds>(duration).count(), 0));
}

}  // namespace

// Every worker waits on the shared listening socket, on the hand-off queue and on the connections
// it holds, and answers whichever has a complete request; the idle connections it holds go to the
// others when it is busy (above), so an idle kept-alive connection never waits on a busy worker
// (libfcgi's loop served one connection until it closed: docs/architecture.md). No peer can hold
// it: answers are written without blocking (beyond what one connection may keep, a response waits
// for its peer for the I/O timeout at most, while the worker counts as busy), and every connection
// has a deadline (Connection::Deadline).
int RunWorker(const WorkerOptions& options, api::Service& service) {
  sigset_t waiting_mask;
  if (Status signals = InstallHandlers(&waiting_mask); !signals.ok()) {
    log::Error("worker: " + signals.message());
    return 1;
  }
  if (options.scoreboard != nullptr) options.scoreboard->Attach(SlotState::kIdle);
  // Shared by all workers, which all wait with epoll: a worker that loses the race for a new
  // connection must not block in accept.
  const int listen_flags = ::fcntl(options.listen_fd, F_GETFL);
  ::fcntl(options.listen_fd, F_SETFL, listen_flags | O_NONBLOCK);
  fastcgi::Limits limits;
  limits.max_stdin_bytes = options.http.max_body_bytes;
  limits.max_connections = static_cast<int>(kMaxConnections);
  const ConnectionHandoff* handoff = options.handoff;

  HeldConnections connections(limits, handoff);
  // After the watcher is cloned (by HeldConnections), which must not share the kept lines.
  log::KeepLines(options.access_log_flush);
  Router router(options.http, options.pool.ws_address);
  AddStatusPages(router, options.pool);
  std::list<Connection>& held = connections.list();
  bool listening = false;
  bool taking = false;
  epoll_event event;
  long served = 0;
  for (;;) {
    const bool stopping =
        g_stop != 0 || (options.max_requests != 0 && served >= options.max_requests);
    if (stopping) {
      // What has begun is finished (or times out); idle connections go to the other workers, or
      // are closed (nginx then opens new ones to the workers that remain or replace this one).
      connections.HandOffIdle();
      for (auto at = held.begin(); at != held.end();) {
        at = at->idle() ? connections.Close(at) : std::next(at);
      }
      if (held.empty()) break;
    }
    // Serve every connection that has a complete request, one request each, then wait again. One
    // that still owes its peer output waits until the peer has taken it.
    bool answered = false;
    for (auto at = held.begin(); at != held.end();) {
      if (!at->ready || !at->output.empty()) {
        ++at;
        continue;
      }
      const fastcgi::Request& request = at->assembler.request();
      const bool keep = request.keep_connection;
      connections.BeforeServing();
      const bool written = Serve(request, {at->fd, at->output, request.id, options.io_timeout},
                                 service, router, options);
      connections.AfterServing();
      ++served;
      answered = true;
      at->ready = false;
      at->assembler.Next();
      at->since = Clock::now();
      if (!written) {
        NotePeerClosed("its peer did not take its answer in time");
        at = connections.Close(at);
        continue;
      }
      if (!keep && at->output.empty()) {
        at = connections.Close(at);
        continue;
      }
      if (!at->output.empty()) {
        // Whatever else it has waits until its peer has taken this answer.
        at->close_when_sent = !keep;
        connections.Update(*at);
        ++at;
        continue;
      }
      // Records already buffered may hold the next request.
      if (!fastcgi::Assemble(*at, at->since)) {
        at = connections.Close(at);
        continue;
      }
      connections.Update(*at);
      ++at;
    }
    if (answered) continue;

    const Clock::time_point now = Clock::now();
    std::optional<Clock::time_point> lines_due = log::KeptLinesDue();
    if (lines_due && *lines_due <= now) {
      log::Flush();
      lines_due.reset();
    }
    const Sweep sweep = SweepConnections(connections, options, now);
    if (stopping && held.empty()) break;
    // At the limit, a new connection may push out the one whose request is the longest on its way.
    const bool room =
        !stopping && (held.size() < kMaxConnections || sweep.longest_arriving != held.end());
    connections.Watch(options.listen_fd, &kListenTag, room && !sweep.hold_back, &listening);
    const bool take = !stopping && connections.RoomToTake();
    if (handoff != nullptr) connections.Watch(handoff->take_fd(), &kTakeTag, take, &taking);
    std::optional<Clock::duration> wake;
    if (sweep.hold_back) wake = *sweep.hold_back;
    for (const std::optional<Clock::time_point>& at : {sweep.next_deadline, lines_due}) {
      if (at && (!wake || *at - now < *wake)) wake = *at - now;
    }
    const int timeout_ms = wake ? CeilMilliseconds(*wake) : -1;
    if (take) handoff->BeginWait();
    // One event per wait. The wait is level-triggered and the kernel puts a connection it reports
    // behind the others that are ready, so each gets its turn; those not reported are not read and
    // stay idle, free to be handed off while this worker serves. Asked for up to 64, the kernel
    // polled every ready connection again on every wait, for the one request served after it: 9 %
    // of a worker's CPU under `{ __typename }` load.
    const int ready = ::epoll_pwait(connections.epoll_fd(), &event, 1, timeout_ms, &waiting_mask);
    if (take) handoff->EndWait();
    if (ready < 0) {
      if (errno == EINTR) continue;
      log::Error(std::string("worker wait failed: ") + std::strerror(errno));
      break;
    }
    if (ready == 1) HandleEvent(event, connections, options.listen_fd, Clock::now());
    // Over the limit by the connection just accepted: it pushes out the one whose request has been
    // on its way the longest.
    if (held.size() > kMaxConnections) {
      const auto pushed_out = SweepConnections(connections, options, Clock::now()).longest_arriving;
      if (pushed_out != held.end()) {
        NotePeerClosed("pushed out by a new connection, at the limit of connections per worker");
        connections.Close(pushed_out);
      }
    }
  }
  log::Debug("worker exits after " + std::to_string(served) + " requests");
  log::Flush();
  return 0;
}

}  // namespace netgraph::fcgi
