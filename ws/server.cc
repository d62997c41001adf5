#include "ws/server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>
#include <utility>

#include "core/log.h"
#include "ws/access_log.h"
#include "ws/connection.h"
#include "ws/handshake.h"
#include "ws/metrics.h"

namespace netgraph::ws {
namespace {

// Which entry of the protocol list a connection is bound to. libwebsockets binds a WebSocket
// upgrade that names no subprotocol to the vhost's default, the HTTP entry.
enum ProtocolId : unsigned { kHttpId = 0, kTransportWsId = 1, kLegacyWsId = 2 };

// libwebsockets allocates it zeroed (no constructor runs), so it holds plain values only.
struct PerSession {
  Connection* connection;     // null until ESTABLISHED, and for plain HTTP
  std::string* http_body;     // a plain HTTP answer (/ws/health, /ws/metrics) not yet written
  unsigned counted_protocol;  // the protocol id counted open in WsMetrics(), 0 when none
  // The upgrade's trace (daemon::TraceContext), from the 101 answer's headers (ADD_HEADERS) until
  // ESTABLISHED, which follows it with the same session data: the connection's log lines carry
  // the span its traceresponse named. Empty strings when ADD_HEADERS did not run.
  char trace_id[33];
  char span_id[17];
  char parent_id[17];
  char flags[3];
};

// The trace `traceparent` names (or a new one), kept in `session` for ESTABLISHED.
const daemon::TraceContext& KeepTrace(PerSession* session, const daemon::TraceContext& trace) {
  auto copy = [](char* to, std::size_t size, const std::string& text) {
    text.copy(to, size - 1);
    to[std::min(text.size(), size - 1)] = '\0';
  };
  copy(session->trace_id, sizeof(session->trace_id), trace.trace_id);
  copy(session->span_id, sizeof(session->span_id), trace.span_id);
  copy(session->parent_id, sizeof(session->parent_id), trace.parent_id);
  copy(session->flags, sizeof(session->flags), trace.flags);
  return trace;
}

// graphql-transport-ws's timeout code, as for a connection_init that never came.
constexpr int kIdleAnonymousCloseCode = close_code::kInitTimeout;
constexpr int kSpareDescriptors = 64;  // for handshakes beyond the connection limit
// How often every connection's keepalive is checked: a ping or a hang-up is at most this late.
constexpr uint64_t kKeepaliveSweepMs = 1000;

// The descriptors lws makes room for: the connection limit and the spare ones, and never fewer than
// the process may open. lws finds the connection of each socket event by its descriptor: by index
// into a table as long as the process's limit, but, when told of a lower limit, by searching that
// table from its start for every event (libwebsockets 4.1: lib/core/context.c sets
// max_fds_unrelated_to_ulimit, lib/plat/unix/unix-fds.c searches). At 10,000 connections the search
// took most of the process's CPU (docs/benchmarks.md, "WebSocket fan-out"). lws takes a limit above
// 10,000,000 for a mistake and assumes 2,560 instead; the connection limit then stands as given.
unsigned DescriptorLimit(std::size_t max_connections) {
  const long process_limit = ::sysconf(_SC_OPEN_MAX);
  const auto needed = static_cast<unsigned>(max_connections) + kSpareDescriptors;
  if (process_limit <= 0 || process_limit > 10000000) return needed;
  return std::max(needed, static_cast<unsigned>(process_limit));
}
constexpr int kMaxAcceptsPerWake = 256;  // keeps an accept storm from starving the loop
constexpr int kAcceptPauseMs = 100;      // after running out of descriptors
constexpr int kHandshakeTimeoutSeconds = 10;
constexpr unsigned kMaxHeaderBytes = 8192;  // all headers of an upgrade request (JWTs are long)

std::string Header(lws* wsi, lws_token_indexes token) {
  int length = lws_hdr_total_length(wsi, token);
  if (length <= 0) return {};
  std::string value(static_cast<std::size_t>(length) + 1, '\0');
  int copied = lws_hdr_copy(wsi, value.data(), length + 1, token);
  value.resize(copied > 0 ? static_cast<std::size_t>(copied) : 0);
  return value;
}

// The socket peer of `wsi` as text: empty for a unix-socket peer (nginx), "?" when unknown.
std::string SocketPeer(lws* wsi) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (::getpeername(lws_get_socket_fd(wsi), reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    return "?";
  }
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_UNIX) return {};
  if (address.ss_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(&address)->sin_addr, text, sizeof(text));
  } else if (address.ss_family == AF_INET6) {
    ::inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(&address)->sin6_addr, text,
                sizeof(text));
  }
  return text[0] != '\0' ? text : "?";
}

void LogFromLws(int level, const char* line) {
  std::string text = std::string("libwebsockets: ") + line;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if ((level & LLL_ERR) != 0) {
    log::Error(text);
  } else if ((level & LLL_WARN) != 0) {
    log::Warn(text);
  } else {
    log::Debug(text);
  }
}

// Answers /ws/health and /ws/metrics (the headers now, the body when writable); anything else
// is refused: nginx only sends upgrades and these here. Returns the callback's result.
int AnswerHttp(lws* wsi, PerSession* session, std::string_view uri) {
  const WsCounters& metrics = WsMetrics();
  const bool health = uri == "/ws/health";
  if (!health && uri != "/ws/metrics") {
    if (lws_return_http_status(wsi, HTTP_STATUS_BAD_REQUEST,
                               "netgraph-ws serves GraphQL over WebSocket only") != 0) {
      return -1;
    }
    return lws_http_transaction_completed(wsi) != 0 ? -1 : 0;
  }
  session->http_body = new std::string(health ? metrics.HealthJson() : metrics.MetricsText());
  const unsigned status = !health || metrics.healthy() ? HTTP_STATUS_OK : 503;
  const char* type = health ? "application/json" : "text/plain; version=0.0.4; charset=utf-8";
  unsigned char headers[LWS_PRE + 512];
  unsigned char* start = headers + LWS_PRE;
  unsigned char* at = start;
  unsigned char* end = headers + sizeof(headers) - 1;
  if (lws_add_http_common_headers(wsi, status, type, session->http_body->size(), &at, end) != 0 ||
      lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                   reinterpret_cast<const unsigned char*>("no-store"), 8, &at,
                                   end) != 0 ||
      lws_finalize_write_http_header(wsi, start, &at, end) != 0) {
    return -1;
  }
  lws_callback_on_writable(wsi);
  return 0;
}

int WriteHttpBody(lws* wsi, PerSession* session) {
  if (session == nullptr || session->http_body == nullptr) return 0;
  std::unique_ptr<std::string> body(std::exchange(session->http_body, nullptr));
  if (lws_write(wsi, reinterpret_cast<unsigned char*>(body->data()), body->size(),
                LWS_WRITE_HTTP_FINAL) < static_cast<int>(body->size())) {
    return -1;
  }
  return lws_http_transaction_completed(wsi) != 0 ? -1 : 0;
}

std::string_view ProtocolName(unsigned id) {
  switch (id) {
    case kTransportWsId:
      return kTransportWsProtocol;
    case kLegacyWsId:
      return kLegacyWsProtocol;
    default:
      return "none";
  }
}

// A URL parameter nginx adds (nginx/netgraph-locations.conf): `name` is "name=". Its request id,
// and the client's traceparent when it sent a well-formed one.
std::string NginxParameter(lws* wsi, std::string_view name) {
  char value[128] = {};
  if (lws_get_urlarg_by_name(wsi, name.data(), value, sizeof(value)) == nullptr) return {};
  // libwebsockets 4.1 copies the whole "name=value" parameter.
  std::string_view found(value);
  if (found.substr(0, name.size()) == name) found.remove_prefix(name.size());
  return std::string(found);
}

// The connection's trace: the one its 101 answer named (ADD_HEADERS), else joined now.
daemon::TraceContext UpgradeTrace(lws* wsi, const PerSession& session) {
  if (session.trace_id[0] == '\0') {
    return daemon::JoinTrace(NginxParameter(wsi, "netgraph_traceparent="));
  }
  return {session.trace_id, session.parent_id, session.span_id, session.flags};
}

// Adds `traceresponse` (the connection's span in the client's trace, as the pool answers each
// request: fcgi/pool/serve.cc) to the 101 answer. Returns the callback's result.
int AddTraceResponse(lws* wsi, PerSession* session, lws_process_html_args* args) {
  // Plain HTTP answers (/ws/health, /ws/metrics) belong to no trace.
  if (session == nullptr || lws_hdr_total_length(wsi, WSI_TOKEN_UPGRADE) <= 0) return 0;
  const std::string header =
      KeepTrace(session, daemon::JoinTrace(NginxParameter(wsi, "netgraph_traceparent="))).Header();
  auto* at = reinterpret_cast<unsigned char*>(args->p);
  if (lws_add_http_header_by_name(wsi, reinterpret_cast<const unsigned char*>("traceresponse:"),
                                  reinterpret_cast<const unsigned char*>(header.data()),
                                  static_cast<int>(header.size()), &at, at + args->max_len) != 0) {
    return -1;
  }
  args->max_len -= static_cast<int>(reinterpret_cast<char*>(at) - args->p);
  args->p = reinterpret_cast<char*>(at);
  return 0;
}

template <typename Handle>
void CloseAndDelete(Handle* handle) {
  uv_close(reinterpret_cast<uv_handle_t*>(handle),
           [](uv_handle_t* closed) { delete reinterpret_cast<Handle*>(closed); });
}

lws_protocols Protocol(const char* name, unsigned id) {
  lws_protocols protocol{};
  protocol.name = name;
  protocol.per_session_data_size = sizeof(PerSession);
  protocol.id = id;
  return protocol;
}

}  // namespace

Server::Server(uv_loop_t* loop, const Options& options, Backend& backend, ClientDirectory& clients)
    : loop_(loop), options_(options), backend_(backend), clients_(clients) {
  protocols_[kHttpId] = Protocol("netgraph-http", kHttpId);
  protocols_[kTransportWsId] = Protocol(kTransportWsProtocol.data(), kTransportWsId);
  protocols_[kLegacyWsId] = Protocol(kLegacyWsProtocol.data(), kLegacyWsId);
  for (std::size_t i = 0; i < 3; ++i) protocols_[i].callback = &Server::Callback;
  // protocols_[3] stays zeroed: the list's terminator.
}

Server::~Server() {
  // With a foreign loop, lws frees its context only when lws_context_destroy is called again after
  // the loop has closed lws's handles (lib/core/context.c: destroy1 -> loop -> destroy2/3).
  if (context_ != nullptr) lws_context_destroy(context_);
  for (Connection* connection : connections_) delete connection;
}

Status Server::Start(int listen_fd) {
  lws_set_log_level(LLL_ERR | LLL_WARN, LogFromLws);

  void* foreign_loops[] = {loop_};
  lws_context_creation_info info{};
  info.options = LWS_SERVER_OPTION_LIBUV;
  info.foreign_loops = foreign_loops;
  info.port = CONTEXT_PORT_NO_LISTEN_SERVER;
  info.vhost_name = "netgraph-ws";
  info.protocols = protocols_.data();
  // The pings are the connections' own (ws/keepalive.h says why): this policy, all zeros, keeps
  // lws from keeping a validity timer for each connection (lws would take a null policy for its
  // default one, which pings).
  info.retry_and_idle_policy = &idle_policy_;
  info.user = this;
  info.pcontext = &context_;  // lws clears it once the context is wholly destroyed
  info.timeout_secs = kHandshakeTimeoutSeconds;
  info.max_http_header_data = kMaxHeaderBytes;
  info.fd_limit_per_thread = DescriptorLimit(options_.max_connections);
  context_ = lws_create_context(&info);
  if (context_ == nullptr) {
    return Status::Internal(
        "libwebsockets could not create its context (is libwebsockets-evlib-uv installed?)");
  }

  listen_fd_ = listen_fd;
  int flags = ::fcntl(listen_fd_, F_GETFL);
  if (flags < 0 || ::fcntl(listen_fd_, F_SETFL, flags | O_NONBLOCK) != 0) {
    return Status::Internal(std::string("listening socket: ") + std::strerror(errno));
  }
  listen_poll_ = new uv_poll_t;
  timer_ = new uv_timer_t;
  uv_poll_init(loop_, listen_poll_, listen_fd_);
  uv_timer_init(loop_, timer_);
  listen_poll_->data = this;
  timer_->data = this;
  uv_poll_start(listen_poll_, UV_READABLE, &Server::OnListenReadable);
  idle_timer_ = new uv_timer_t;
  uv_timer_init(loop_, idle_timer_);
  idle_timer_->data = this;
  // A quarter of the timeout between sweeps: an idle connection goes within 1.25 timeouts.
  const auto sweep = static_cast<uint64_t>(options_.idle_anonymous_timeout.count() / 4);
  uv_timer_start(
      idle_timer_,
      [](uv_timer_t* timer) { static_cast<Server*>(timer->data)->CloseIdleAnonymous(); }, sweep,
      sweep);
  keepalive_timer_ = new uv_timer_t;
  uv_timer_init(loop_, keepalive_timer_);
  keepalive_timer_->data = this;
  uv_timer_start(
      keepalive_timer_,
      [](uv_timer_t* timer) { static_cast<Server*>(timer->data)->CheckKeepalives(); },
      kKeepaliveSweepMs, kKeepaliveSweepMs);
  return Status::Ok();
}

void Server::OnListenReadable(uv_poll_t* poll, int status, int) {
  if (status == 0) static_cast<Server*>(poll->data)->Accept();
}

void Server::Accept() {
  for (int i = 0; i < kMaxAcceptsPerWake; ++i) {
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        log::Warn(std::string("accepting connections: ") + std::strerror(errno) +
                  "; pausing briefly");
        PauseAccepting();
      }
      return;
    }
    // On failure lws closes the descriptor itself.
    if (lws_adopt_socket(context_, fd) == nullptr) {
      log::Warn("libwebsockets refused a connection (its descriptor table is full)");
    }
  }
}

void Server::PauseAccepting() {
  uv_poll_stop(listen_poll_);
  uv_timer_start(
      timer_,
      [](uv_timer_t* timer) {
        auto* server = static_cast<Server*>(timer->data);
        if (server->stopping_) return;
        uv_poll_start(server->listen_poll_, UV_READABLE, &Server::OnListenReadable);
      },
      kAcceptPauseMs, 0);
}

void Server::CloseIdleAnonymous() {
  const auto now = std::chrono::steady_clock::now();
  for (Connection* connection : connections_) {
    if (connection->IdleAnonymous(now, options_.idle_anonymous_timeout)) {
      log::Debug("closing an idle anonymous connection from " + connection->peer_address() +
                 connection->Traced());
      connection->Close(kIdleAnonymousCloseCode, "Idle connection: no token and no subscription");
    }
  }
}

void Server::CheckKeepalives() {
  const auto now = std::chrono::steady_clock::now();
  for (Connection* connection : connections_) connection->CheckKeepalive(now);
}

int Server::Callback(lws* wsi, lws_callback_reasons reason, void* user, void* in, size_t length) {
  auto* server = static_cast<Server*>(lws_context_user(lws_get_context(wsi)));
  auto* session = static_cast<PerSession*>(user);
  Connection* connection = session != nullptr ? session->connection : nullptr;
  switch (reason) {
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
      return server->OnConfirmUpgrade(wsi);
    case LWS_CALLBACK_HTTP:
      return AnswerHttp(wsi, session, std::string_view(static_cast<const char*>(in), length));
    case LWS_CALLBACK_HTTP_WRITEABLE:
      return WriteHttpBody(wsi, session);
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
      if (session != nullptr) delete std::exchange(session->http_body, nullptr);
      return lws_callback_http_dummy(wsi, reason, user, in, length);
    case LWS_CALLBACK_ADD_HEADERS:
      return AddTraceResponse(wsi, session, static_cast<lws_process_html_args*>(in));
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
      if (connection != nullptr) connection->OnPeerClose(static_cast<unsigned char*>(in), length);
      return 0;
    case LWS_CALLBACK_ESTABLISHED:
      server->OnEstablished(wsi, user);
      return 0;
    case LWS_CALLBACK_RECEIVE:
      if (connection != nullptr) {
        connection->OnReceive(
            static_cast<const char*>(in), length,
            lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0);
      }
      return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
      return connection != nullptr ? connection->OnWritable() : 0;
    case LWS_CALLBACK_RECEIVE_PONG:
      if (connection != nullptr) connection->OnPong();
      return 0;
    case LWS_CALLBACK_TIMER:
      if (connection != nullptr) connection->OnTimer();
      return 0;
    case LWS_CALLBACK_CLOSED:
      server->OnClosed(user);
      return 0;
    default:
      return lws_callback_http_dummy(wsi, reason, user, in, length);
  }
}

int Server::OnConfirmUpgrade(lws* wsi) {
  std::string header = Header(wsi, WSI_TOKEN_PROTOCOL);
  SubprotocolOffer offer = ParseSubprotocols(header);
  if (offer.any && !offer.transport_ws && !offer.legacy_ws) {
    // lws would drop the connection without a word; answer instead. (No header at all is let
    // through and closed with 4406 once upgraded, as graphql-ws servers do.)
    lws_return_http_status(wsi, HTTP_STATUS_BAD_REQUEST,
                           "Unsupported WebSocket subprotocol: use graphql-transport-ws");
    return 1;
  }
  return 0;
}

void Server::OnEstablished(lws* wsi, void* user) {
  auto* per_session = static_cast<PerSession*>(user);
  unsigned id = lws_get_protocol(wsi)->id;
  ConnectionIdentity identity;
  identity.request_id = NginxParameter(wsi, "netgraph_request_id=");
  identity.trace = UpgradeTrace(wsi, *per_session);
  identity.protocol = ProtocolName(id);
  // X-Forwarded-For, not X-Real-IP: Debian's libwebsockets 4.1 keeps no header it does not know
  // (lws_hdr_custom_* find nothing), and nginx appends the same $remote_addr to this one.
  identity.client = ClientAddress(SocketPeer(wsi), Header(wsi, WSI_TOKEN_X_FORWARDED_FOR),
                                  options_.trusted_proxies);
  const std::string address = identity.client;
  auto* connection = new Connection(wsi, options_, backend_, write_buffer_, std::move(identity));
  per_session->connection = connection;
  connections_.insert(connection);

  auto refuse = [&](int code, std::string_view reason) {
    LogUpgrade(connection->identity(), code);
    connection->Refuse(code, reason);
  };
  if (stopping_) return refuse(close_code::kGoingAway, "Server shutting down");
  if (connections_.size() > options_.max_connections) {
    return refuse(close_code::kTryAgainLater, "Too many connections");
  }
  if (connections_per_address_[address] >= options_.max_connections_per_address) {
    return refuse(close_code::kTryAgainLater, "Too many connections from this address");
  }
  if (!OriginAllowed(options_.allowed_origins, Header(wsi, WSI_TOKEN_ORIGIN))) {
    return refuse(close_code::kForbidden, "Forbidden: Origin not allowed");
  }
  if (id != kTransportWsId && id != kLegacyWsId) {
    return refuse(close_code::kSubprotocolNotAcceptable, "Subprotocol not acceptable");
  }
  LogUpgrade(connection->identity(), 0);
  WsCounters& metrics = WsMetrics();
  ++metrics.open_connections[std::string(ProtocolName(id))];
  ++metrics.connections_total[std::string(ProtocolName(id))];
  per_session->counted_protocol = id;
  Subprotocol subprotocol =
      id == kTransportWsId ? Subprotocol::kGraphqlTransportWs : Subprotocol::kGraphqlWs;
  std::unique_ptr<Session> session = Session::Create(
      subprotocol, *connection, *connection, options_, Header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION));
  ++connections_per_address_[address];
  clients_.Connected(*session, address);
  connection->Start(std::move(session));
}

void Server::OnClosed(void* user) {
  auto* session = static_cast<PerSession*>(user);
  if (session == nullptr || session->connection == nullptr) return;
  Connection* connection = std::exchange(session->connection, nullptr);
  connection->OnClosed();
  if (session->counted_protocol != 0) {
    --WsMetrics()
          .open_connections[std::string(ProtocolName(std::exchange(session->counted_protocol, 0)))];
  }
  if (Session* started = connection->session()) {
    clients_.Disconnected(*started);
    auto count = connections_per_address_.find(connection->peer_address());
    if (--count->second == 0) connections_per_address_.erase(count);
  }
  connections_.erase(connection);
  delete connection;
  if (stopping_ && connections_.empty() && timer_ != nullptr) {
    uv_timer_start(
        timer_, [](uv_timer_t* timer) { static_cast<Server*>(timer->data)->Finish(); }, 0, 0);
  }
}

void Server::Stop(std::function<void()> stopped) {
  if (stopping_) return;
  stopping_ = true;
  WsMetrics().stopping = true;
  stopped_ = std::move(stopped);
  if (listen_poll_ != nullptr) {
    uv_poll_stop(listen_poll_);
    CloseAndDelete(std::exchange(listen_poll_, nullptr));
  }
  if (idle_timer_ != nullptr) {
    uv_timer_stop(idle_timer_);
    CloseAndDelete(std::exchange(idle_timer_, nullptr));
  }
  if (keepalive_timer_ != nullptr) {
    uv_timer_stop(keepalive_timer_);
    CloseAndDelete(std::exchange(keepalive_timer_, nullptr));
  }
  for (Connection* connection : connections_) {
    connection->Close(close_code::kGoingAway, "Server shutting down");
  }
  if (timer_ == nullptr) return Finish();  // never started
  uv_timer_stop(timer_);
  uv_timer_start(
      timer_, [](uv_timer_t* timer) { static_cast<Server*>(timer->data)->Finish(); },
      connections_.empty() ? 0 : static_cast<uint64_t>(options_.shutdown_timeout.count()), 0);
}

void Server::Finish() {
  if (timer_ != nullptr) CloseAndDelete(std::exchange(timer_, nullptr));
  // Connections still open are cut off; their CLOSED callbacks run from here.
  if (context_ != nullptr) lws_context_destroy(context_);
  if (stopped_) std::exchange(stopped_, nullptr)();
}

}  // namespace netgraph::ws
