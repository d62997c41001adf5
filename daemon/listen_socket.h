// The listening socket a daemon serves on: handed over by systemd socket activation (LISTEN_FDS),
// or opened here from an address: a unix socket path ("/run/netgraph/fcgi.sock") or "host:port".
#ifndef NETGRAPH_DAEMON_LISTEN_SOCKET_H_
#define NETGRAPH_DAEMON_LISTEN_SOCKET_H_

#include <sys/stat.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace netgraph::daemon {

// The name under which a daemon leaves its idle connections in systemd's file descriptor store
// when it stops (daemon/systemd_notify.h, StoreInSystemd), for its next run.
inline constexpr char kStoredConnectionName[] = "kept-connection";

// What systemd passed to this process (LISTEN_PID must be this process): the first listening
// socket, and the connections a previous run left in the store (named kStoredConnectionName).
struct SystemdDescriptors {
  std::optional<int> listening;
  std::vector<int> stored_connections;
};

// Takes them (close-on-exec) and clears the LISTEN_* variables so children do not take them for
// their own.
SystemdDescriptors TakeSystemdDescriptors();

// Refuses (InvalidArgument naming `variable`) an address a daemon must not listen on: anything but
// a unix socket path ("/...") or host:port on the loopback interface (127.0.0.0/8, ::1, a name
// that resolves to those only; an empty host is 127.0.0.1; IPv6 in brackets, "[::1]:9000").
// nginx is the only listener meant to be reached from elsewhere: FastCGI has no authentication
// (whoever reaches the pool writes the parameters nginx would, the client's address among them),
// and netgraph-ws behind no nginx would have no TLS and none of its limits (docs/security.md).
Status CheckListenAddress(std::string_view variable, const std::string& address);

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
  // Connections a previous run left in systemd's store, to serve before new ones.
  std::vector<int> stored_connections;
};

// The socket systemd passed, or else `address` opened with `backlog`. A unix socket gets mode 0660:
// its group (the web server) may connect, nobody else. A socket from systemd bound to an address
// CheckListenAddress would refuse (the unit's ListenStream=, the operator's choice) is used, with a
// warning at start.
Result<ServingSocket> TakeOrOpenListenSocket(const std::string& address, int backlog);

}  // namespace netgraph::daemon

#endif  // NETGRAPH_DAEMON_LISTEN_SOCKET_H_
