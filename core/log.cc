#include "core/log.h"

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace netgraph::log {
namespace {

std::string g_program = "netgraph";
Level g_threshold = Level::kInfo;

std::string_view LevelName(Level level) {
  switch (level) {
    case Level::kDebug: return "debug";
    case Level::kInfo: return "info";
    case Level::kWarn: return "warn";
    case Level::kError: return "error";
  }
  return "info";
}

}  // namespace

void Init(std::string_view program) {
  g_program = std::string(program);
  const char* level = std::getenv("NETGRAPH_LOG_LEVEL");
  std::string_view name = level == nullptr ? "info" : level;
  if (name == "debug") g_threshold = Level::kDebug;
  if (name == "info") g_threshold = Level::kInfo;
  if (name == "warn") g_threshold = Level::kWarn;
  if (name == "error") g_threshold = Level::kError;
}

void Write(Level level, std::string_view message) {
  if (level < g_threshold) return;
  std::string line;
  line.reserve(message.size() + g_program.size() + 24);
  line.append(LevelName(level)).append(" ").append(g_program).append("[");
  line.append(std::to_string(::getpid())).append("]: ").append(message);
  if (line.empty() || line.back() != '\n') line.push_back('\n');
  // A lost log line is not worth failing a request over.
  (void)!::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace netgraph::log
