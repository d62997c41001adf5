// The systemd notification protocol (sd_notify(3)) without libsystemd: a datagram to
// $NOTIFY_SOCKET. Outside systemd (no NOTIFY_SOCKET) every call does nothing.
#ifndef NETGRAPH_DAEMON_SYSTEMD_NOTIFY_H_
#define NETGRAPH_DAEMON_SYSTEMD_NOTIFY_H_

#include <string_view>

namespace netgraph::daemon {

// Sends `state`, e.g. "READY=1", "STOPPING=1", "STATUS=4 workers". Returns false when it could not.
bool NotifySystemd(std::string_view state);

}  // namespace netgraph::daemon

#endif  // NETGRAPH_DAEMON_SYSTEMD_NOTIFY_H_
