#include "fcgi/http/ws_health.h"

#include <netdb.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

namespace netgraph::fcgi {
namespace {

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
