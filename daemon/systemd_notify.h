// The systemd notification protocol (sd_notify(3)) without libsystemd: a datagram to
// $NOTIFY_SOCKET. Outside systemd (no NOTIFY_SOCKET) every call does nothing.
#ifndef NETGRAPH_DAEMON_SYSTEMD_NOTIFY_H_
#define NETGRAPH_DAEMON_SYSTEMD_NOTIFY_H_

#include <string_view>
#include <vector>

namespace netgraph::daemon {

// Sends `state`, e.g. "READY=1", "STOPPING=1", "STATUS=4 workers". Returns false when it could not.
bool NotifySystemd(std::string_view state);

// Leaves `fds` in the service's file descriptor store under `name` (FDSTORE=1, FDNAME=): systemd
// keeps them open across `systemctl restart` (and try-restart) and passes them to the next run in
// LISTEN_FDS, named so (daemon/listen_socket.h); a stop closes them. Needs the unit's
// FileDescriptorStoreMax= to be large enough, and NotifyAccess= to let this process speak. systemd
// reads the notification socket before it handles the sender's exit, so a process may exit right
// after. Returns false when a message could not be sent. The caller still closes its own copies.
bool StoreInSystemd(const std::vector<int>& fds, std::string_view name);

}  // namespace netgraph::daemon

#endif  // NETGRAPH_DAEMON_SYSTEMD_NOTIFY_H_
