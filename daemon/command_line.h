// The daemons take no arguments (they are configured by the environment): --help prints the usage,
// anything else is a usage error.
#ifndef NETGRAPH_DAEMON_COMMAND_LINE_H_
#define NETGRAPH_DAEMON_COMMAND_LINE_H_

#include <optional>

namespace netgraph::daemon {

// nullopt when there are no arguments and the daemon should run; otherwise the exit status after
// printing `usage` (0 for --help/-h on stdout, 2 for anything else, on stderr).
std::optional<int> AnswerCommandLine(int argc, char** argv, const char* usage);

}  // namespace netgraph::daemon

#endif  // NETGRAPH_DAEMON_COMMAND_LINE_H_
