#include "daemon/command_line.h"

#include <iostream>
#include <string_view>

#include "core/version.h"

namespace netgraph::daemon {

Invocation ParseCommandLine(int argc, char** argv, std::string_view program, const char* usage) {
  Invocation invocation;
  if (argc <= 1) return invocation;
  const std::string_view argument = argv[1];
  if (argc == 2 && (argument == "--help" || argument == "-h")) {
    std::cout << usage;
    invocation.exit_status = 0;
  } else if (argc == 2 && argument == "--version") {
    std::cout << program << " " << Version() << "\n";
    invocation.exit_status = 0;
  } else if (argc == 2 && argument == "--check-config") {
    invocation.check_config = true;
  } else {
    std::cerr << usage;
    invocation.exit_status = 2;
  }
  return invocation;
}

}  // namespace netgraph::daemon
