// The start-up both daemons share, in their order: the daemon reads its own settings from the
// environment, then LoadService reads the service's, reports every configuration mistake at once
// and creates the service; then the daemon takes its listening socket (daemon/listen_socket.h).
//
// A configuration mistake ends the process with kExitConfig, which the systemd units name in
// RestartPreventExitStatus: systemd does not restart a daemon into the same mistake forever.
#ifndef NETGRAPH_DAEMON_STARTUP_H_
#define NETGRAPH_DAEMON_STARTUP_H_

#include <functional>
#include <memory>

#include "core/api/service.h"
#include "core/config/environment.h"
#include "core/status.h"

namespace netgraph::daemon {

inline constexpr int kExitConfig = 78;  // EX_CONFIG (sysexits.h)

struct LoadedService {
  api::ServiceConfig config;
  std::unique_ptr<api::Service> service;
};

// Reads the service configuration from `env` (after the daemon has read its own variables from it,
// so one error lists every bad variable), lets `adjust` check or change it (an error is a
// configuration mistake too), and creates the service. Logs `env`'s warnings (deprecated names).
// An error means: log it and exit with kExitConfig.
Result<LoadedService> LoadService(
    config::Environment& env, const std::function<Status(api::ServiceConfig&)>& adjust = nullptr);

}  // namespace netgraph::daemon

#endif  // NETGRAPH_DAEMON_STARTUP_H_
