// The daemons are configured by the environment and their configuration file, not by arguments.
// The command line only asks questions: --help prints the usage, --version the release, and
// --check-config asks the daemon to read and validate its configuration and exit (like nginx -t).
// Anything else is a usage error.
#ifndef NETGRAPH_DAEMON_COMMAND_LINE_H_
#define NETGRAPH_DAEMON_COMMAND_LINE_H_

#include <optional>
#include <string_view>

namespace netgraph::daemon {

struct Invocation {
  // Set when the command line was answered here: exit with it (0 after --help or --version on
  // stdout, 2 after a usage error on stderr).
  std::optional<int> exit_status;
  // --check-config: validate the configuration (exit 0, or kExitConfig listing every problem).
  bool check_config = false;
};

// `program` names the binary in --version's answer ("netgraph-fcgi 0.1.0+g1a2b3c4").
Invocation ParseCommandLine(int argc, char** argv, std::string_view program, const char* usage);

}  // namespace netgraph::daemon

#endif  // NETGRAPH_DAEMON_COMMAND_LINE_H_
