#include "fcgi/pool/worker.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstring>
#include <exception>
#include <list>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/crypto/hex.h"
#include "core/graphql/execution/json_writer.h"
#include "core/graphql/execution/response_buffer.h"
#include "core/log.h"
#include "core/telemetry.h"
#include "daemon/signals.h"
#include "fcgi/fastcgi/connection_output.h"
#include "fcgi/fastcgi/record.h"
#include "fcgi/http/routes.h"

namespace netgraph::fcgi {
namespace {

volatile std::sig_atomic_t g_stop = 0;

void OnStop(int) { g_stop = 1; }

// The stop signals stay blocked except inside epoll_pwait(2): a stop that comes while a request
// runs is seen when the worker next waits, and one that comes while it waits ends the wait at once.
sigset_t InstallHandlers() {
  daemon::HandleSignals({SIGTERM, SIGINT, SIGQUIT}, OnStop, daemon::AfterSignal::kInterrupt);
  daemon::IgnoreSignals({SIGPIPE, SIGHUP, SIGUSR1});
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  for (int signal : {SIGTERM, SIGINT, SIGQUIT}) sigaddset(&stop_signals, signal);
  sigset_t waiting;
  ::sigprocmask(SIG_BLOCK, &stop_signals, &waiting);
  for (int signal : {SIGTERM, SIGINT, SIGQUIT}) sigdelset(&waiting, signal);
  return waiting;
}

// The response's CGI header block (FastCGI's Status line, then the headers).
std::string Head(const HttpResponse& response) {
  std::string head;
  head.reserve(256);
  char status[4];
  head.append("Status: ");
  auto [status_end, ignored] = std::to_chars(status, status + sizeof(status), response.status);
  head.append(status, status_end).push_back(' ');
  head.append(ReasonPhrase(response.status)).append("\r\n");
  for (const auto& [name, value] : response.headers)
    head.append(name).append(": ").append(value).append("\r\n");
  // With the length known, nginx passes the body on as it is; without it, it would send the
  // client a chunked body it has to frame (a 204 has no body, and may not say so).
  if (response.status != 204) {
    char length[24];
    auto [length_end, unused] =
        std::to_chars(length, length + sizeof(length), response.body.size());
    head.append("Content-Length: ").append(length, length_end).append("\r\n");
  }
  head.append("\r\n");
  return head;
}

// Where a response goes: the connection's socket, and what it has not taken yet.
struct Reply {
  int fd;
  ConnectionOutput& output;
  // A response the peer has not taken within this is abandoned (the connection is closed).
  std::chrono::milliseconds io_timeout;
};

// Sends `response` as request `id`'s answer: the header block and the body in one writev(2), and
// what the socket does not take at once kept for later (fcgi/fastcgi/connection_output.h).
bool WriteResponse(const Reply& reply, std::uint16_t id, const HttpResponse& response) {
  const std::string head = Head(response);
  fastcgi::ResponseFrames frames(id, {head, response.body});
  return reply.output.Send(reply.fd, frames.segments(),
                           std::chrono::steady_clock::now() + reply.io_timeout);
}

// The request as the handlers see it (views of `request`). Like CGI, the first of repeated
// parameters counts.
HttpRequest ToHttp(const fastcgi::Request& request, std::string_view* request_id,
                   std::string_view* content_length) {
  HttpRequest http;
  std::string_view script_name;
  const std::pair<std::string_view, std::string_view*> wanted[] = {
      {"REQUEST_METHOD", &http.method},     {"DOCUMENT_URI", &http.path},
      {"SCRIPT_NAME", &script_name},        {"QUERY_STRING", &http.query_string},
      {"CONTENT_TYPE", &http.content_type}, {"CONTENT_LENGTH", content_length},
      {"HTTP_ACCEPT", &http.accept},        {"HTTP_AUTHORIZATION", &http.authorization},
      {"HTTP_ORIGIN", &http.origin},        {"REQUEST_ID", request_id},
  };
  for (const auto& [name, value] : request.params) {
    for (const auto& [wanted_name, field] : wanted) {
      if (name != wanted_name) continue;
      // A field not yet set has no data; an empty parameter sets it to "", not to unset.
      if (field->data() == nullptr) *field = value.data() == nullptr ? std::string_view("") : value;
      break;
    }
  }
  http.has_accept = http.accept.data() != nullptr;
  if (http.path.empty()) http.path = script_name;
  return http;
}

// nginx's $request_id (32 hex digits) when it passed one that is plainly an id; else a new one of
// the same form, so every access line has one.
std::string RequestId(std::string_view given) {
  const bool usable = !given.empty() && given.size() <= 64 &&
                      given.find_first_not_of("0123456789abcdefABCDEF-") == std::string_view::npos;
  if (usable) return std::string(given);
  std::uint8_t random[16] = {};
  (void)!::getrandom(random, sizeof(random), 0);
  return crypto::HexEncode(random);
}

double Milliseconds(std::chrono::nanoseconds duration) {
  return static_cast<double>(duration.count()) / 1e6;
}

OperationKind KindOf(const GraphQLTrace& trace) {
  if (!trace.operation) return OperationKind::kNone;
  switch (trace.operation->type) {
    case graphql::OperationType::kQuery:
      return OperationKind::kQuery;
    case graphql::OperationType::kMutation:
      return OperationKind::kMutation;
    case graphql::OperationType::kSubscription:
      return OperationKind::kSubscription;
  }
  return OperationKind::kNone;
}

std::string RootFieldList(const GraphQLTrace& trace) {
  std::string fields;
  if (!trace.operation) return fields;
  for (std::string_view field : trace.operation->root_fields) {
    if (!fields.empty()) fields.push_back(',');
    fields.append(field);
  }
  return fields;
}

// The outcome and code labels of a GraphQL request (docs/operations.md, "Metrics").
std::pair<std::string_view, std::string_view> Outcome(const GraphQLTrace& trace, bool crashed) {
  if (crashed) return {"internal_error", ""};
  if (!trace.executed) return {"request_error", ""};
  if (trace.has_errors) {
    return {"graphql_error",
            trace.error_codes.empty() ? "" : std::string_view(trace.error_codes[0])};
  }
  if (!trace.failure.empty()) return {"failure", trace.failure};
  return {"ok", ""};
}

// A log line's JSON object, written straight into a buffer (a request's access line is built for
// every request: a document tree would cost it several allocations per field).
class JsonLine {
 public:
  JsonLine() { text_.Append('{'); }
  JsonLine& Field(std::string_view name, std::string_view value) {
    Name(name);
    graphql::json::AppendString(value, &text_);
    return *this;
  }
  JsonLine& Field(std::string_view name, double value) {
    Name(name);
    graphql::json::AppendNumber(value, &text_);
    return *this;
  }
  JsonLine& Field(std::string_view name, std::int64_t value) {
    Name(name);
    graphql::json::AppendInt(value, &text_);
    return *this;
  }
  template <typename Range, typename Write>
  JsonLine& Array(std::string_view name, const Range& items, Write write) {
    Name(name);
    text_.Append('[');
    bool first = true;
    for (const auto& item : items) {
      if (!first) text_.Append(',');
      first = false;
      write(item, &text_);
    }
    text_.Append(']');
    return *this;
  }
  // The object closed; the line is spent.
  std::string Finish() {
    text_.Append('}');
    return std::move(text_).Release();
  }

 private:
  void Name(std::string_view name) {
    if (fields_++ > 0) text_.Append(',');
    graphql::json::AppendString(name, &text_);
    text_.Append(':');
  }

  graphql::ResponseBuffer text_;
  int fields_ = 0;
};

// What one request was, for the access and slow logs.
JsonLine Describe(std::string_view method, std::string_view path, const std::string& request_id,
                  const GraphQLTrace& trace) {
  JsonLine line;
  line.Field("time", telemetry::NowUtc())
      .Field("request_id", request_id)
      .Field("method", method)
      .Field("path", path);
  if (path == "/graphql") {
    line.Field("operation_type", OperationKindName(KindOf(trace)))
        .Field("operation_name", trace.operation        ? trace.operation->name
                                 : trace.operation_name ? std::string_view(*trace.operation_name)
                                                        : std::string_view());
    static const std::vector<std::string_view> kNone;
    line.Array("root_fields", trace.operation ? trace.operation->root_fields : kNone,
               graphql::json::AppendString);
  }
  return line;
}

// Answers `request` with `reply`, then accounts for it. False when the answer could not be
// written: the connection is then closed.
bool Serve(const fastcgi::Request& request, const Reply& reply, api::Service& service,
           const WorkerOptions& worker) {
  const GraphQLHttpOptions& options = worker.http;
  const auto start = std::chrono::steady_clock::now();
  // Only the slow log reads the profile.
  if (worker.slow_request.count() > 0) telemetry::RequestProfile::Begin();
  std::string_view given_id;
  std::string_view length_text;
  HttpRequest http = ToHttp(request, &given_id, &length_text);
  const std::string request_id = RequestId(given_id);
  Scoreboard* scoreboard = worker.scoreboard;
  if (scoreboard != nullptr) scoreboard->BeginRequest(http.path, request_id);

  unsigned long long length = 0;
  if (!length_text.empty()) {
    const auto [end, error] =
        std::from_chars(length_text.data(), length_text.data() + length_text.size(), length);
    if (error != std::errc() || end != length_text.data() + length_text.size())
      length = options.max_body_bytes + 1;
  }
  if (length > options.max_body_bytes || request.body_too_large) {
    HttpResponse response = ErrorResponse(
        413, "Request body exceeds " + std::to_string(options.max_body_bytes) + " bytes");
    response.SetHeader("X-Request-Id", request_id);
    const bool written = WriteResponse(reply, request.id, response);
    if (scoreboard != nullptr) scoreboard->EndRequest(nullptr);
    telemetry::RequestProfile::End();
    return written;
  }
  // Like CGI, the body is CONTENT_LENGTH bytes of what came.
  http.body = std::string_view(request.body).substr(0, length);

  GraphQLTrace trace;
  if (scoreboard != nullptr) {
    trace.on_operation = [scoreboard](const GraphQLTrace& known) {
      scoreboard->SetOperation(KindOf(known),
                               known.operation ? known.operation->name : std::string_view(),
                               RootFieldList(known));
    };
  }
  HttpResponse response;
  bool crashed = false;
  try {
    response = Route(http, service, options, worker.pool, &trace);
  } catch (const std::exception& e) {
    log::Error("request " + request_id + " failed: " + e.what());
    crashed = true;
    response = ErrorResponse(500, "Internal server error");
  }
  response.SetHeader("X-Request-Id", request_id);
  // The response goes to nginx now; counting and logging it does not delay the client.
  const bool written = WriteResponse(reply, request.id, response);
  const std::chrono::nanoseconds duration = std::chrono::steady_clock::now() - start;
  const std::string_view method = http.method;
  const std::string_view path = http.path;

  const bool graphql = path == "/graphql" && method != "OPTIONS";
  if (scoreboard != nullptr) {
    FinishedRequest finished;
    if (graphql) {
      finished.kind = KindOf(trace);
      finished.root_field = trace.operation && !trace.operation->root_fields.empty()
                                ? trace.operation->root_fields[0]
                                : std::string_view();
      std::tie(finished.outcome, finished.code) = Outcome(trace, crashed);
      finished.status = response.status;
      finished.duration = duration;
    }
    scoreboard->EndRequest(graphql ? &finished : nullptr);
  }
  const bool slow = worker.slow_request.count() > 0 && duration >= worker.slow_request;
  // Scrapes and health checks come every few seconds: they would drown the requests.
  const bool routine = path == "/metrics" || path == "/status" || path == "/health";
  if (worker.access_log && !routine) {
    JsonLine access = Describe(method, path, request_id, trace);
    access.Field("status", std::int64_t{response.status})
        .Array("error_codes", trace.error_codes, graphql::json::AppendString);
    if (!trace.failure.empty()) access.Field("failure", trace.failure);
    access.Field("duration_ms", Milliseconds(duration))
        .Field("bytes", static_cast<std::int64_t>(response.body.size()));
    if (!trace.caller.empty()) access.Field("caller", trace.caller);
    log::Info("access " + access.Finish());
  }
  if (slow) {
    JsonLine line = Describe(method, path, request_id, trace);
    line.Field("duration_ms", Milliseconds(duration))
        .Field("prepare_ms", Milliseconds(trace.prepare))
        .Field("execute_ms", Milliseconds(trace.execute))
        .Field("database_ms", Milliseconds(telemetry::RequestProfile::DatabaseTime()))
        .Field("statements", static_cast<std::int64_t>(telemetry::RequestProfile::Statements()))
        .Array(
            "resolvers", telemetry::RequestProfile::Resolvers(),
            [](const telemetry::RequestProfile::Resolver& resolver, graphql::ResponseBuffer* out) {
              out->Append(JsonLine()
                              .Field("field", resolver.field)
                              .Field("ms", Milliseconds(resolver.total))
                              .Field("database_ms", Milliseconds(resolver.database))
                              .Finish());
            });
    log::Warn("slow request " + line.Finish());
  }
  telemetry::RequestProfile::End();
  return written;
}

using Clock = std::chrono::steady_clock;

// Bytes of replies and responses a connection may have waiting for its peer to take them: 256
// connections of a worker keep at most 16 MiB (fcgi/fastcgi/connection_output.h).
constexpr std::size_t kMaxKeptOutput = 64 * 1024;

// One connection from the web server (kept for further requests when it sets FCGI_KEEP_CONN, as
// nginx does) and what has arrived on it.
struct Connection {
  Connection(int socket, fastcgi::Limits limits, bool accepted, Clock::time_point now)
      : fd(socket), assembler(limits), arriving(accepted), since(now) {}
  int fd;
  std::string input;
  fastcgi::RequestAssembler assembler;
  ConnectionOutput output{kMaxKeptOutput};  // what its peer has not taken yet
  bool ready = false;                       // assembler holds a complete request
  // A request is on its way (the connection is newly accepted, or part of a request has come)
  // since `since`; otherwise, unless ready, the connection has been idle since then.
  bool arriving;
  Clock::time_point since;
  bool close_when_sent = false;  // answered without FCGI_KEEP_CONN: closed once output is taken
  bool awaits_output = false;    // waits for its socket to be writable, not readable

  void NoteProgress(Clock::time_point now) {
    if (ready) {
      arriving = false;
    } else if (!arriving && (!input.empty() || assembler.in_request())) {
      arriving = true;
      since = now;
    }
  }
  // Nothing of it read, nothing owed, not yet answered: another worker can take it over as it is.
  bool idle() const {
    return !ready && input.empty() && !assembler.in_request() && output.empty() && !close_when_sent;
  }
  // When its peer has had its time: to bring a whole request or take what it is owed (the I/O
  // timeout), or to send the next request (the idle timeout). A ready request has none: it waits
  // for this worker.
  std::optional<Clock::time_point> Deadline(const WorkerOptions& options) const {
    std::optional<Clock::time_point> deadline;
    if (!output.empty()) deadline = output.since() + options.io_timeout;
    if (ready) return deadline;
    const Clock::time_point peer = since + (arriving ? options.io_timeout : options.idle_timeout);
    return deadline ? std::min(*deadline, peer) : peer;
  }
};

// While one of its connections is new or in the middle of a request, a worker leaves new
// connections to the others (as libfcgi's loop did, which read a whole request before accepting
// again), so that requests that arrive together are spread over idle workers. A request that
// takes longer than this to arrive stops holding new connections back, and so does any other
// while it lasts: nginx sends a request at once, so a peer this slow is not nginx, and must not
// slow down accepting nginx's connections. A new connection that has sent nothing gets less:
// nginx writes its request as soon as it has connected.
constexpr std::chrono::milliseconds kArrivalGrace{2000};
constexpr std::chrono::milliseconds kFirstBytesGrace{200};

// A worker hands the idle connections it holds to the others (fcgi/pool/connection_handoff.h): once
// a request has run a whole tick and another worker waits for work (BusyHandOff), and when it
// stops, instead of closing connections nginx may be sending on. A slow request holds up the others
// for at most two ticks; the watcher wakes 500 times a second while its worker is busy.
constexpr std::chrono::microseconds kHandOffTick{2000};

// Connections held by a worker, accepted and taken over together (FCGI_MAX_CONNS says so). At the
// limit, a new connection pushes out the one whose request has been on its way the longest.
constexpr std::size_t kMaxConnections = 256;

// Logs that a connection was closed for its peer's sake (too slow, not reading, pushed out), at
// most one line per 10 s per worker: a flood of such peers must not flood the log.
void NotePeerClosed(std::string_view why) {
  static Clock::time_point next_line;
  static long unlogged = 0;
  const Clock::time_point now = Clock::now();
  if (now < next_line) {
    ++unlogged;
    return;
  }
  std::string line = "closing a FastCGI connection: ";
  line.append(why);
  if (unlogged > 0) {
    line.append(" (and ")
        .append(std::to_string(unlogged))
        .append(" more closed for their peer's sake since the last such line)");
  }
  log::Warn(line);
  unlogged = 0;
  next_line = now + std::chrono::seconds(10);
}

// Assembles what `connection` has read, sending any replies the protocol asks for (replies to
// management records wait for no peer: one that does not take them is closed). False when the
// connection is over: it broke the protocol, failed, or its peer does not read.
bool Assemble(Connection& connection, Clock::time_point now) {
  std::string replies;
  const auto progress = connection.assembler.Consume(connection.input, &replies);
  if (!replies.empty() && !connection.output.Send(connection.fd, replies, now)) {
    NotePeerClosed("its peer does not read the replies to its management records");
    return false;
  }
  if (progress == fastcgi::RequestAssembler::Progress::kFailed) {
    log::Warn("closing a FastCGI connection: " + std::string(connection.assembler.error()));
    return false;
  }
  connection.ready = progress == fastcgi::RequestAssembler::Progress::kReady;
  connection.NoteProgress(now);
  return true;
}

// Reads what `connection` has and assembles it. False when the connection is over: closed by the
// peer, failed, or broke the protocol.
bool Receive(Connection& connection, Clock::time_point now) {
  // Read into one buffer for the process and append what came: growing the connection's input by
  // the whole read size would zero 64 KiB for every request of a few hundred bytes.
  constexpr std::size_t kReadBytes = 64 * 1024;
  static char buffer[kReadBytes];
  for (int reads = 0; reads < 16; ++reads) {
    const ssize_t got = ::read(connection.fd, buffer, kReadBytes);
    if (got == 0) return false;
    if (got < 0) {
      if (errno == EINTR) continue;
      return errno == EAGAIN;
    }
    connection.input.append(buffer, static_cast<std::size_t>(got));
    if (!Assemble(connection, now)) return false;
    // A complete request is served first; a peer behind on its replies is read again once it has
    // taken them.
    if (connection.ready || !connection.output.empty()) break;
    if (static_cast<std::size_t>(got) < kReadBytes) break;
  }
  return true;
}

// What the events of the listening socket and of the hand-off queue carry (a connection's carry
// the connection).
constexpr char kListenTag = 0;
constexpr char kTakeTag = 0;

// The connections a worker holds, and the hand-offs of the idle ones.
class Connections {
 public:
  using Iterator = std::list<Connection>::iterator;

  Connections(fastcgi::Limits limits, const ConnectionHandoff* handoff)
      : limits_(limits), handoff_(handoff), epoll_fd_(::epoll_create1(EPOLL_CLOEXEC)) {
    if (handoff != nullptr) {
      busy_ = std::make_unique<BusyHandOff>(*handoff, kHandOffTick, SIGTERM);
    }
  }
  ~Connections() {
    for (Connection& connection : list_) ::close(connection.fd);
    ::close(epoll_fd_);
  }

  std::list<Connection>& list() { return list_; }
  // A new connection (`accepted`), or one another worker handed off.
  void Add(int fd, bool accepted, Clock::time_point now) {
    Connection& added = list_.emplace_back(fd, limits_, accepted, now);
    epoll_event event = {};
    event.events = EPOLLIN;
    event.data.ptr = &added;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0) {
      log::Error(std::string("worker cannot wait on a connection: ") + std::strerror(errno));
      Close(std::prev(list_.end()));
    }
  }
  // Its registration goes explicitly: a connection handed off lives on elsewhere, and epoll keeps
  // watching a file description until its last descriptor closes.
  Iterator Close(Iterator at) {
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, at->fd, nullptr);
    ::close(at->fd);
    return list_.erase(at);
  }
  void Close(const Connection& connection) {
    for (auto at = list_.begin(); at != list_.end(); ++at) {
      if (&*at == &connection) {
        Close(at);
        return;
      }
    }
  }

  // A connection that owes its peer output waits until it can write, and is not read meanwhile
  // (its peer is behind already); the others wait for input.
  void Update(Connection& connection) {
    const bool awaits_output = !connection.output.empty();
    if (awaits_output == connection.awaits_output) return;
    epoll_event event = {};
    event.events = awaits_output ? EPOLLOUT : EPOLLIN;
    event.data.ptr = &connection;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, connection.fd, &event) == 0) {
      connection.awaits_output = awaits_output;
    } else {
      log::Error(std::string("worker cannot wait on a connection: ") + std::strerror(errno));
    }
  }

  // Whether to wait on `fd` (the listening socket or the hand-off queue, which all workers share:
  // EPOLLEXCLUSIVE wakes one waiting worker per event instead of all); its events carry `tag`.
  void Watch(int fd, const void* tag, bool wanted, bool* watched) {
    if (wanted == *watched) return;
    epoll_event event = {};
    event.events = EPOLLIN | EPOLLEXCLUSIVE;
    event.data.ptr = const_cast<void*>(tag);
    if (::epoll_ctl(epoll_fd_, wanted ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, fd, &event) == 0)
      *watched = wanted;
  }
  int epoll_fd() const { return epoll_fd_; }

  // Hands off every idle connection (a stopping worker's); those the queue does not take stay.
  void HandOffIdle() {
    if (handoff_ == nullptr) return;
    for (;;) {
      CollectIdle(nullptr);
      if (idle_.empty() || !handoff_->Put(idle_.data(), idle_.size())) return;
      ForgetHandedOff();
    }
  }

  // Before serving the request of `serving`: the others, for the watcher to hand off.
  void BeforeServing(const Connection& serving) {
    if (!busy_) return;
    CollectIdle(&serving);
    busy_->Begin(idle_.data(), idle_.size());
  }

  // After serving it: forgets what was handed off meanwhile.
  void AfterServing() {
    if (busy_ && busy_->End()) ForgetHandedOff();
  }

  // Whether a message of the hand-off queue would fit: taken connections count against the limit.
  bool RoomToTake() const {
    return handoff_ != nullptr &&
           list_.size() + ConnectionHandoff::kMaxPerMessage <= kMaxConnections;
  }

  // Takes one queued message's connections.
  void TakeHandedOff(Clock::time_point now) {
    taken_.clear();
    if (handoff_ == nullptr || !handoff_->Take(&taken_)) return;
    for (int fd : taken_) Add(fd, false, now);
  }

 private:
  // idle_ becomes the idle connections but `except`, as many as one hand-off carries.
  void CollectIdle(const Connection* except) {
    idle_.clear();
    for (const Connection& connection : list_) {
      if (idle_.size() == ConnectionHandoff::kMaxPerMessage) break;
      if (&connection != except && connection.idle()) idle_.push_back(connection.fd);
    }
  }

  // The queue holds the connections in idle_ now: this worker's descriptors of them go.
  void ForgetHandedOff() {
    for (auto at = list_.begin(); at != list_.end();) {
      at = std::find(idle_.begin(), idle_.end(), at->fd) != idle_.end() ? Close(at) : std::next(at);
    }
  }

  fastcgi::Limits limits_;
  const ConnectionHandoff* handoff_;
  std::list<Connection> list_;
  std::vector<int> taken_;
  std::vector<int> idle_;  // what CollectIdle found: the connections a hand-off carries
  std::unique_ptr<BusyHandOff> busy_;
  int epoll_fd_;  // the connections (data.ptr) and, while wanted, the listening socket and queue
};

// What a pass over the held connections found: when to wake, and whom a new connection may push
// out.
struct Sweep {
  std::optional<Clock::duration> hold_back;  // how long new connections are still left to others
  std::optional<Clock::time_point> next_deadline;
  std::list<Connection>::iterator longest_arriving;  // end() when no request is on its way
};

// Closes the connections whose peer has had its time, and finds what the next wait needs.
Sweep SweepConnections(Connections& connections, const WorkerOptions& options,
                       Clock::time_point now) {
  std::list<Connection>& held = connections.list();
  Sweep sweep;
  sweep.longest_arriving = held.end();
  bool stalled = false;
  for (auto at = held.begin(); at != held.end();) {
    const std::optional<Clock::time_point> deadline = at->Deadline(options);
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
  const sigset_t waiting_mask = InstallHandlers();
  if (options.scoreboard != nullptr) options.scoreboard->Attach(SlotState::kIdle);
  // Shared by all workers, which all wait with epoll: a worker that loses the race for a new
  // connection must not block in accept.
  const int listen_flags = ::fcntl(options.listen_fd, F_GETFL);
  ::fcntl(options.listen_fd, F_SETFL, listen_flags | O_NONBLOCK);
  fastcgi::Limits limits;
  limits.max_stdin_bytes = options.http.max_body_bytes;
  limits.max_connections = static_cast<int>(kMaxConnections);
  const ConnectionHandoff* handoff = options.handoff;

  Connections connections(limits, handoff);
  std::list<Connection>& held = connections.list();
  bool listening = false;
  bool taking = false;
  constexpr int kMaxEvents = 64;
  epoll_event events[kMaxEvents];
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
      connections.BeforeServing(*at);
      const bool written =
          Serve(request, {at->fd, at->output, options.io_timeout}, service, options);
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
      if (!Assemble(*at, at->since)) {
        at = connections.Close(at);
        continue;
      }
      connections.Update(*at);
      ++at;
    }
    if (answered) continue;

    const Clock::time_point now = Clock::now();
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
    if (sweep.next_deadline && (!wake || *sweep.next_deadline - now < *wake)) {
      wake = *sweep.next_deadline - now;
    }
    const int timeout_ms = wake ? CeilMilliseconds(*wake) : -1;
    if (take) handoff->BeginWait();
    const int ready =
        ::epoll_pwait(connections.epoll_fd(), events, kMaxEvents, timeout_ms, &waiting_mask);
    if (take) handoff->EndWait();
    if (ready < 0) {
      if (errno == EINTR) continue;
      log::Error(std::string("worker wait failed: ") + std::strerror(errno));
      break;
    }
    // Connections are read until one has a complete request; what the others have waits until
    // that request is answered, so that they stay idle and can be handed off meanwhile. The wait
    // is level-triggered: the ones not read come first next time, before newer ones.
    const Clock::time_point woke = Clock::now();
    bool request_ready = false;
    for (int i = 0; i < ready; ++i) {
      if (events[i].data.ptr == &kListenTag) {
        const int fd = ::accept4(options.listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) connections.Add(fd, true, woke);
        continue;
      }
      if (events[i].data.ptr == &kTakeTag) {
        connections.TakeHandedOff(woke);
        continue;
      }
      Connection& connection = *static_cast<Connection*>(events[i].data.ptr);
      if (connection.awaits_output) {
        if (!connection.output.Flush(connection.fd)) {
          connections.Close(connection);
          continue;
        }
        if (!connection.output.empty()) continue;
        if (connection.close_when_sent) {
          connections.Close(connection);
          continue;
        }
        // Idle from now on, unless a request was on its way: that one keeps its deadline.
        if (!connection.arriving) connection.since = woke;
        // What came before the peer fell behind may hold the next request.
        if (!Assemble(connection, woke)) {
          connections.Close(connection);
          continue;
        }
        connections.Update(connection);
        request_ready = request_ready || connection.ready;
        continue;
      }
      if (request_ready && connection.idle()) continue;
      if (!Receive(connection, woke)) {
        connections.Close(connection);
        continue;
      }
      connections.Update(connection);
      request_ready = request_ready || connection.ready;
    }
    // Over the limit by the connection just accepted: it pushes out the one whose request has been
    // on its way the longest (after the events above, which may still name it).
    if (held.size() > kMaxConnections) {
      const auto pushed_out = SweepConnections(connections, options, woke).longest_arriving;
      if (pushed_out != held.end()) {
        NotePeerClosed("pushed out by a new connection, at the limit of connections per worker");
        connections.Close(pushed_out);
      }
    }
  }
  log::Debug("worker exits after " + std::to_string(served) + " requests");
  return 0;
}

}  // namespace netgraph::fcgi
