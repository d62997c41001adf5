// The daemons are configured by the environment and their configuration file, not by arguments.
// The command line only asks questions: --help prints the usage, --version the release, and
// --check-config asks the daemon to read and validate its configuration and exit (like nginx -t),
// --print-config to print every setting with the value it would use and where that came from.
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
  // --print-config: print the settings read (and, like --check-config, exit 0 or kExitConfig).
  bool print_config = false;
};

// `program` names the binary in --version's answer ("netgraph-fcgi 0.1.0+5.g1a2b3c4d5e6f") and in
// --help's, which is the usage line, `about` (what the daemon does and its signals, lines of at
// most 78 columns) and the options and configuration both daemons share; help2man makes each
// daemon's man page from it (packaging/CMakeLists.txt).
Invocation ParseCommandLine(int argc, char** argv, std::string_view program,
                            std::string_view about);

}  // namespace netgraph::daemon

#endif  // NETGRAPH_DAEMON_COMMAND_LINE_H_
