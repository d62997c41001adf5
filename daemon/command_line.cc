#include "daemon/command_line.h"

#include <iostream>
#include <string>
#include <string_view>

#include "core/version.h"

namespace netgraph::daemon {

namespace {

std::string Usage(std::string_view program, std::string_view about) {
  std::string usage = "Usage: " + std::string(program) +
                      " [--check-config | --print-config | --version | --help]\n";
  usage.append(about);
  usage.append(
      "\n"
      "Options:\n"
      "  --check-config  read and check the configuration as the service would (the file,\n"
      "                  every variable, the key files it names) and exit: 0, or 78 naming\n"
      "                  every problem; settings that are not netgraph's are warned about\n"
      "  --print-config  print every setting the service reads, with the value it would\n"
      "                  use and where that came from (environment, file:line, default),\n"
      "                  then check the configuration as --check-config does\n"
      "  --version       print the version and exit\n"
      "  --help          print this help and exit\n"
      "\n"
      "Configuration:\n"
      "  Environment variables (NETGRAPH_*, DATABASE_URL, REDIS_URL) and the file that\n"
      "  NETGRAPH_CONFIG_FILE names, /etc/netgraph/netgraph.env in the Debian package (it\n"
      "  lists every setting); a variable set in the environment wins over the file. Run\n"
      "  the service as its systemd unit, which sets the user, the sockets and the file.\n"
      "  The settings: /usr/share/doc/netgraph/docs/operations.md.gz, \"Configuration\".\n"
      "\n"
      "Exit status:\n"
      "  0 stopped as asked; 78 a configuration mistake (the unit does not restart it);\n"
      "  2 a usage error; 1 anything else, such as a database schema older than this\n"
      "  release needs (run the migrations: systemctl restart netgraph-migrate).\n");
  return usage;
}

}  // namespace

Invocation ParseCommandLine(int argc, char** argv, std::string_view program,
                            std::string_view about) {
  const std::string usage = Usage(program, about);
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
  } else if (argc == 2 && argument == "--print-config") {
    invocation.print_config = true;
  } else {
    std::cerr << usage;
    invocation.exit_status = 2;
  }
  return invocation;
}

}  // namespace netgraph::daemon
