// The start-up both daemons share, in their order: the daemon reads its own settings from the
// environment, then LoadService reads the service's, reports every configuration mistake at once
// and creates the service; then the daemon takes its listening socket (daemon/listen_socket.h).
//
// Before it reads any key file, LoadService makes the process non-dumpable (prctl
// PR_SET_DUMPABLE 0): the daemons hold the treasury's seed, the update-signing key and the token
// keys, and a core dump, or another process of the same user attaching with ptrace or reading
// /proc/PID/mem, would copy them. A non-dumpable process writes no core dump and only a process
// with CAP_SYS_PTRACE may attach to it; /proc/PID/{mem,environ,fd,maps} are root's. The pool's
// workers and relay, forked from it, inherit the setting.
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

// Reads the service configuration and NETGRAPH_LOG_LEVEL from `env` (after the daemon has read its
// own variables from it, and recorded its own mistakes there with AddProblem, so one error lists
// every bad variable), lets `adjust` change it, and creates the service, which reads the key files.
// Applies the log level only on success, then fetches the JWKS URL if one is configured (a fetch
// that fails is logged, not an error: see core/auth/jwks_key_set.h). Logs `env`'s warnings
// (deprecated names). An error means: log it and exit with kExitConfig (at start), or keep the
// running configuration (on a reload).
Result<LoadedService> LoadService(config::Environment& env,
                                  const std::function<void(api::ServiceConfig&)>& adjust = nullptr);

// --check-config's answer for a configuration read from `env` with the outcome `read`: on success
// one line on stdout naming the file read, and exit status 0; otherwise each problem on its own
// log line (stderr), and kExitConfig.
int CheckConfiguration(const Status& read, const config::Environment& env);

}  // namespace netgraph::daemon

#endif  // NETGRAPH_DAEMON_STARTUP_H_
