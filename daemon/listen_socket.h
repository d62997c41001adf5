// The listening socket a daemon serves on: handed over by systemd socket activation (LISTEN_FDS),
// or opened here from an address: a unix socket path ("/run/netgraph/fcgi.sock") or "host:port".
#ifndef NETGRAPH_DAEMON_LISTEN_SOCKET_H_
#define NETGRAPH_DAEMON_LISTEN_SOCKET_H_

#include <sys/stat.h>

#include <optional>
#include <string>

#include "core/status.h"

namespace netgraph::daemon {

// The first socket systemd passed to this process, if any (LISTEN_PID must be this process). Clears
// the LISTEN_* variables so children do not take them for their own.
std::optional<int> TakeSystemdSocket();

// Binds and listens. A unix socket replaces a stale file at `address` and gets `unix_mode`.
Result<int> OpenListenSocket(const std::string& address, int backlog, unsigned unix_mode);

// The unix socket file a process bound (nothing for host:port), to remove at exit only if it is
// still that file: a restart that overlapped this process's shutdown may have bound a new socket at
// the same path, and removing that one would cut the new process off.
class BoundSocketFile {
 public:
  // Call right after OpenListenSocket(address).
  explicit BoundSocketFile(const std::string& address);
  void Remove() const;

 private:
  std::string path_;  // empty: nothing to remove
  struct stat bound_ {};
};

// The socket a daemon serves on.
struct ServingSocket {
  int fd = -1;
  std::string where;                    // for the log: the address, or systemd's socket
  BoundSocketFile file{std::string()};  // to remove at exit; nothing for systemd's socket
};

// The socket systemd passed, or else `address` opened with `backlog`. A unix socket gets mode 0660:
// its group (the web server) may connect, nobody else.
Result<ServingSocket> TakeOrOpenListenSocket(const std::string& address, int backlog);

}  // namespace netgraph::daemon

#endif  // NETGRAPH_DAEMON_LISTEN_SOCKET_H_
