#include "daemon/listen_socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <utility>

#include "core/log.h"

namespace netgraph::daemon {
namespace {

constexpr int kSystemdFirstFd = 3;  // SD_LISTEN_FDS_START

std::string ErrnoText(const std::string& what) { return what + ": " + std::strerror(errno); }

Result<int> OpenUnix(const std::string& path, int backlog, unsigned mode) {
  sockaddr_un address{};
  if (path.size() >= sizeof(address.sun_path))
    return Status::InvalidArgument("socket path too long: " + path);
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.c_str(), path.size());
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Status::Unavailable(ErrnoText("socket"));
  ::unlink(path.c_str());
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 ||
      ::chmod(path.c_str(), static_cast<mode_t>(mode)) != 0 || ::listen(fd, backlog) != 0) {
    Status error = Status::Unavailable(ErrnoText("listening on " + path));
    ::close(fd);
    return error;
  }
  return fd;
}

bool IsUnixPath(const std::string& address) { return !address.empty() && address[0] == '/'; }

// The addresses "host:port" names (an empty host is 127.0.0.1; an IPv6 host may be bracketed).
Result<std::unique_ptr<addrinfo, void (*)(addrinfo*)>> Resolve(const std::string& address) {
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos) {
    return Status::InvalidArgument("listen address must be a unix socket path or host:port, not: " +
                                   address);
  }
  std::string host = address.substr(0, colon);
  const std::string port = address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  if (host.empty()) host = "127.0.0.1";
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    return Status::InvalidArgument("bad listen address " + address + ": " + ::gai_strerror(rc));
  }
  return std::unique_ptr<addrinfo, void (*)(addrinfo*)>(found, ::freeaddrinfo);
}

bool IsLoopback(const sockaddr* address) {
  if (address->sa_family == AF_INET) {
    const auto* ipv4 = reinterpret_cast<const sockaddr_in*>(address);
    return (ntohl(ipv4->sin_addr.s_addr) >> 24) == 127;
  }
  if (address->sa_family == AF_INET6) {
    const in6_addr& ipv6 = reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr;
    if (IN6_IS_ADDR_LOOPBACK(&ipv6)) return true;
    return IN6_IS_ADDR_V4MAPPED(&ipv6) && ipv6.s6_addr[12] == 127;
  }
  return address->sa_family == AF_UNIX;
}

Result<int> OpenTcp(const std::string& address, int backlog) {
  auto resolved = Resolve(address);
  NETGRAPH_RETURN_IF_ERROR(resolved);
  const addrinfo* found = resolved->get();
  int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int on = 1;
  bool ok = fd >= 0 && ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) == 0 &&
            ::bind(fd, found->ai_addr, found->ai_addrlen) == 0 && ::listen(fd, backlog) == 0;
  if (!ok) {
    Status error = Status::Unavailable(ErrnoText("listening on " + address));
    if (fd >= 0) ::close(fd);
    return error;
  }
  return fd;
}

}  // namespace

SystemdDescriptors TakeSystemdDescriptors() {
  const char* pid = std::getenv("LISTEN_PID");
  const char* fds = std::getenv("LISTEN_FDS");
  const char* names = std::getenv("LISTEN_FDNAMES");
  SystemdDescriptors taken;
  if (pid != nullptr && fds != nullptr && std::atol(pid) == static_cast<long>(::getpid())) {
    // LISTEN_FDNAMES: one name per descriptor, separated by ':' (the socket unit's name for its
    // sockets, FDNAME for stored ones).
    std::vector<std::string> named;
    std::istringstream in(names == nullptr ? "" : names);
    for (std::string name; std::getline(in, name, ':');) named.push_back(name);
    const int count = std::atoi(fds);
    for (int i = 0; i < count; ++i) {
      const int fd = kSystemdFirstFd + i;
      ::fcntl(fd, F_SETFD, FD_CLOEXEC);
      const bool stored = static_cast<std::size_t>(i) < named.size() &&
                          named[static_cast<std::size_t>(i)] == kStoredConnectionName;
      if (stored) {
        taken.stored_connections.push_back(fd);
      } else if (!taken.listening) {
        taken.listening = fd;
      }
    }
  }
  ::unsetenv("LISTEN_PID");
  ::unsetenv("LISTEN_FDS");
  ::unsetenv("LISTEN_FDNAMES");
  return taken;
}

Status CheckListenAddress(std::string_view variable, const std::string& address) {
  if (IsUnixPath(address)) return Status::Ok();
  auto resolved = Resolve(address);
  if (!resolved.ok())
    return Status::InvalidArgument(std::string(variable) + ": " + resolved.status().message());
  for (const addrinfo* at = resolved->get(); at != nullptr; at = at->ai_next) {
    if (!IsLoopback(at->ai_addr)) {
      return Status::InvalidArgument(
          std::string(variable) + "=" + address +
          " is reachable from other hosts: listen on a unix socket path or on a loopback address "
          "(127.0.0.1:port, [::1]:port), and let nginx be the only listener others reach "
          "(docs/security.md)");
    }
  }
  return Status::Ok();
}

Result<int> OpenListenSocket(const std::string& address, int backlog, unsigned unix_mode) {
  if (IsUnixPath(address)) return OpenUnix(address, backlog, unix_mode);
  return OpenTcp(address, backlog);
}

BoundSocketFile::BoundSocketFile(const std::string& address) {
  if (!address.empty() && address[0] == '/' && ::stat(address.c_str(), &bound_) == 0)
    path_ = address;
}

void BoundSocketFile::Remove() const {
  struct stat now {};
  if (!path_.empty() && ::stat(path_.c_str(), &now) == 0 && now.st_ino == bound_.st_ino &&
      now.st_dev == bound_.st_dev) {
    ::unlink(path_.c_str());
  }
}

Result<ServingSocket> TakeOrOpenListenSocket(const std::string& address, int backlog) {
  ServingSocket socket;
  SystemdDescriptors passed = TakeSystemdDescriptors();
  socket.stored_connections = std::move(passed.stored_connections);
  if (passed.listening) {
    socket.fd = *passed.listening;
    socket.where = "the socket systemd passed";
    sockaddr_storage bound{};
    socklen_t length = sizeof(bound);
    if (::getsockname(*passed.listening, reinterpret_cast<sockaddr*>(&bound), &length) == 0 &&
        !IsLoopback(reinterpret_cast<const sockaddr*>(&bound))) {
      log::Warn(
          "the socket systemd passed is reachable from other hosts (its unit's ListenStream=): "
          "only nginx should reach this daemon (docs/security.md)");
    }
    return socket;
  }
  Result<int> opened = OpenListenSocket(address, backlog, 0660);
  NETGRAPH_RETURN_IF_ERROR(opened);
  socket.fd = *opened;
  socket.where = address;
  socket.file = BoundSocketFile(address);
  return socket;
}

}  // namespace netgraph::daemon
