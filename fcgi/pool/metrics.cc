#include "fcgi/pool/metrics.h"

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <string_view>

#include "core/telemetry.h"
#include "core/version.h"

namespace netgraph::fcgi {
namespace {

// A unix listening socket's queue through sock_diag, which reports for a listener the connections
// waiting to be accepted (rqueue) and the backlog (wqueue). Unprivileged: the same query `ss -xl`
// makes.
std::optional<ListenQueue> UnixListenQueue(ino_t inode) {
  int diag = ::socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (diag < 0) return std::nullopt;
  struct {
    nlmsghdr header;
    unix_diag_req request;
  } query{};
  query.header.nlmsg_len = sizeof(query);
  query.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
  query.header.nlmsg_flags = NLM_F_REQUEST;
  query.request.sdiag_family = AF_UNIX;
  query.request.udiag_states = 1u << 10;  // TCP_LISTEN
  query.request.udiag_ino = static_cast<__u32>(inode);
  query.request.udiag_show = UDIAG_SHOW_RQLEN;
  query.request.udiag_cookie[0] = query.request.udiag_cookie[1] = ~0u;  // INET_DIAG_NOCOOKIE
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  std::optional<ListenQueue> queue;
  if (::sendto(diag, &query, sizeof(query), 0, reinterpret_cast<sockaddr*>(&kernel),
               sizeof(kernel)) == static_cast<ssize_t>(sizeof(query))) {
    pollfd ready{diag, POLLIN, 0};
    alignas(nlmsghdr) char buffer[8192];
    ssize_t length = ::poll(&ready, 1, 200) == 1 ? ::recv(diag, buffer, sizeof(buffer), 0) : -1;
    // The reply walked by hand: the netlink macros are C casts the build warns about.
    const auto* message = reinterpret_cast<const nlmsghdr*>(buffer);
    const std::size_t end =
        length >= static_cast<ssize_t>(sizeof(nlmsghdr))
            ? std::min<std::size_t>(message->nlmsg_len, static_cast<std::size_t>(length))
            : 0;
    std::size_t at = NLMSG_ALIGN(sizeof(nlmsghdr)) + NLMSG_ALIGN(sizeof(unix_diag_msg));
    while (message->nlmsg_type == SOCK_DIAG_BY_FAMILY && at + sizeof(rtattr) <= end) {
      const auto* attribute = reinterpret_cast<const rtattr*>(buffer + at);
      if (attribute->rta_len < sizeof(rtattr) || at + attribute->rta_len > end) break;
      if (attribute->rta_type == UNIX_DIAG_RQLEN &&
          attribute->rta_len >= RTA_LENGTH(sizeof(unix_diag_rqlen))) {
        const auto* lengths = reinterpret_cast<const unix_diag_rqlen*>(buffer + at + RTA_LENGTH(0));
        queue = ListenQueue{lengths->udiag_rqueue, lengths->udiag_wqueue};
      }
      at += RTA_ALIGN(attribute->rta_len);
    }
  }
  ::close(diag);
  return queue;
}

std::int64_t MonotonicNs() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// A stream socket of `family` whose connect, sends and receives give up after `timeout` (Linux
// applies SO_SNDTIMEO to connect), so a stalled netgraph-ws cannot stall the pool's /health.
int TimedSocket(int family, std::chrono::milliseconds timeout) {
  int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  timeval limit{static_cast<time_t>(timeout.count() / 1000),
                static_cast<suseconds_t>(timeout.count() % 1000 * 1000)};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
  return fd;
}

// A connected stream socket to `address` (a path, or host:port), or -1.
int Connect(const std::string& address, std::chrono::milliseconds timeout) {
  if (address.empty()) return -1;
  if (address.front() == '/') {
    sockaddr_un path{};
    path.sun_family = AF_UNIX;
    if (address.size() >= sizeof(path.sun_path)) return -1;
    std::memcpy(path.sun_path, address.data(), address.size());
    int fd = TimedSocket(AF_UNIX, timeout);
    if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&path), sizeof(path)) != 0) {
      ::close(fd);
      return -1;
    }
    return fd;
  }
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos) return -1;
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(address.substr(0, colon).c_str(), address.substr(colon + 1).c_str(), &hints,
                    &found) != 0) {
    return -1;
  }
  int fd = TimedSocket(found->ai_family, timeout);
  if (fd >= 0 && ::connect(fd, found->ai_addr, found->ai_addrlen) != 0) {
    ::close(fd);
    fd = -1;
  }
  ::freeaddrinfo(found);
  return fd;
}

}  // namespace

std::optional<ListenQueue> ReadListenQueue(int listen_fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (::getsockname(listen_fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    return std::nullopt;
  }
  if (address.ss_family == AF_UNIX) {
    struct stat status {};
    if (::fstat(listen_fd, &status) != 0) return std::nullopt;
    return UnixListenQueue(status.st_ino);
  }
  // For a listening TCP socket Linux reports the accept queue in tcpi_unacked and its bound in
  // tcpi_sacked.
  tcp_info info{};
  socklen_t info_length = sizeof(info);
  if (::getsockopt(listen_fd, IPPROTO_TCP, TCP_INFO, &info, &info_length) != 0) return std::nullopt;
  return ListenQueue{info.tcpi_unacked, info.tcpi_sacked};
}

std::string PoolStatusJson(const PoolView& pool) {
  const std::int64_t now_ns = MonotonicNs();
  nlohmann::json workers = nlohmann::json::array();
  std::size_t busy = 0;
  std::size_t idle = 0;
  for (const SlotSnapshot& slot : pool.scoreboard->Snapshot()) {
    if (slot.state != SlotState::kBusy && slot.state != SlotState::kIdle) continue;
    nlohmann::json worker = {{"pid", slot.pid},
                             {"state", SlotStateName(slot.state)},
                             {"requests", slot.requests_served}};
    if (slot.state == SlotState::kBusy) {
      ++busy;
      worker["path"] = slot.path;
      worker["request_id"] = slot.request_id;
      worker["operation_type"] = OperationKindName(slot.kind);
      worker["operation_name"] = slot.operation_name;
      worker["root_fields"] = slot.root_fields;
      worker["started"] = telemetry::FormatUtc(slot.started_unix_ms);
      worker["elapsed_ms"] = (now_ns - slot.started_monotonic_ns) / 1000000;
    } else {
      ++idle;
    }
    workers.push_back(std::move(worker));
  }
  nlohmann::json body = {{"start_time", telemetry::FormatUtc(pool.scoreboard->started_unix_ms())},
                         {"busy_workers", busy},
                         {"idle_workers", idle},
                         {"total_workers", busy + idle},
                         {"workers", std::move(workers)}};
  if (std::optional<ListenQueue> queue = ReadListenQueue(pool.listen_fd)) {
    body["listen_queue"] = queue->waiting;
    body["listen_queue_limit"] = queue->limit;
  }
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string PoolMetricsText(const PoolView& pool) {
  std::string out = pool.scoreboard->MetricsText();
  if (std::optional<ListenQueue> queue = ReadListenQueue(pool.listen_fd)) {
    out.append(
        "# HELP netgraph_pool_listen_queue Connections waiting in the pool's accept queue.\n"
        "# TYPE netgraph_pool_listen_queue gauge\n");
    out.append("netgraph_pool_listen_queue ").append(std::to_string(queue->waiting)).append("\n");
    out.append(
        "# HELP netgraph_pool_listen_queue_limit The accept queue's bound (the listen backlog).\n"
        "# TYPE netgraph_pool_listen_queue_limit gauge\n");
    out.append("netgraph_pool_listen_queue_limit ").append(std::to_string(queue->limit));
    out.append("\n");
  }
  out.append(
      "# HELP netgraph_build_info The running build; always 1.\n"
      "# TYPE netgraph_build_info gauge\n");
  std::string build;
  telemetry::AppendLabel(build, "daemon", "netgraph-fcgi");
  telemetry::AppendLabel(build, "version", ReleaseVersion());
  telemetry::AppendLabel(build, "commit", BuildCommit());
  telemetry::AppendSample(out, "netgraph_build_info", build, 1);
  return out;
}

bool WsHealthy(const std::string& address, std::chrono::milliseconds timeout) {
  int fd = Connect(address, timeout);
  if (fd < 0) return false;
  const std::string_view request =
      "GET /ws/health HTTP/1.1\r\nHost: netgraph-ws\r\nConnection: close\r\n\r\n";
  bool healthy = false;
  if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
      static_cast<ssize_t>(request.size())) {
    char head[64] = {};
    ssize_t got = ::recv(fd, head, sizeof(head) - 1, 0);
    healthy =
        got > 12 && std::string_view(head, static_cast<std::size_t>(got)).substr(9, 3) == "200";
  }
  ::close(fd);
  return healthy;
}

}  // namespace netgraph::fcgi
