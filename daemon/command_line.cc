#include "daemon/command_line.h"

#include <cstring>
#include <iostream>

namespace netgraph::daemon {

std::optional<int> AnswerCommandLine(int argc, char** argv, const char* usage) {
  if (argc <= 1) return std::nullopt;
  const bool help = std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0;
  (help ? std::cout : std::cerr) << usage;
  return help ? 0 : 2;
}

}  // namespace netgraph::daemon
