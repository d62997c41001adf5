#include "core/log.h"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

namespace netgraph::log {
namespace {

std::string g_program = "netgraph";
Level g_threshold = Level::kInfo;

// The pid every line names, kept so that a line costs one system call (its write), not two;
// renewed in a forked child (the pool's workers log from the first request on). 0 before Init.
std::atomic<pid_t> g_pid{0};

// Kept lines (KeepLines): only the thread that called it keeps any (t_keeping), and only it reads
// or writes these, so they need no lock; other threads' lines are written at once.
thread_local bool t_keeping = false;
std::chrono::milliseconds g_keep_delay{0};
std::string g_kept;
std::chrono::steady_clock::time_point g_kept_since;

void WriteOut(std::string_view text) {
  // A lost log line is not worth failing a request over.
  (void)!::write(STDERR_FILENO, text.data(), text.size());
}

// In a forked child: its own pid, none of its parent's kept lines (the parent writes those), and
// every line written at once.
void AfterFork() {
  g_pid.store(::getpid(), std::memory_order_relaxed);
  g_kept.clear();
  t_keeping = false;
}

// The syslog priority journald takes from a "<N>" line prefix.
char Priority(Level level) {
  switch (level) {
    case Level::kDebug:
      return '7';
    case Level::kInfo:
      return '6';
    case Level::kWarn:
      return '4';
    case Level::kError:
      return '3';
  }
  return '6';
}

std::string_view LevelName(Level level) {
  switch (level) {
    case Level::kDebug:
      return "debug";
    case Level::kInfo:
      return "info";
    case Level::kWarn:
      return "warn";
    case Level::kError:
      return "error";
  }
  return "info";
}

}  // namespace

std::string EscapeControlCharacters(std::string_view message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) {
    message.remove_suffix(1);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string escaped;
  escaped.reserve(message.size());
  // Runs of printable bytes go in whole: most lines have no byte to escape.
  std::size_t run = 0;
  for (std::size_t i = 0; i < message.size(); ++i) {
    const auto byte = static_cast<unsigned char>(message[i]);
    if (byte >= 0x20 && byte != 0x7f) continue;
    escaped.append(message.substr(run, i - run));
    run = i + 1;
    if (byte == '\n') {
      escaped.append("\\n");
    } else if (byte == '\r') {
      escaped.append("\\r");
    } else if (byte == '\t') {
      escaped.append("\\t");
    } else {
      escaped.append("\\x").push_back(kHex[byte >> 4]);
      escaped.push_back(kHex[byte & 0xf]);
    }
  }
  escaped.append(message.substr(run));
  return escaped;
}

void Init(std::string_view program) {
  g_program = std::string(program);
  static std::once_flag pid_kept;
  std::call_once(pid_kept, [] {
    g_pid.store(::getpid(), std::memory_order_relaxed);
    ::pthread_atfork(nullptr, nullptr, AfterFork);
  });
  // Until the configuration is loaded (daemon/startup.h validates the name and calls SetLevel).
  const char* level = std::getenv("NETGRAPH_LOG_LEVEL");
  if (std::optional<Level> parsed = ParseLevel(level == nullptr ? "info" : level)) {
    g_threshold = *parsed;
  }
}

std::optional<Level> ParseLevel(std::string_view name) {
  for (Level level : {Level::kDebug, Level::kInfo, Level::kWarn, Level::kError}) {
    if (name == LevelName(level)) return level;
  }
  return std::nullopt;
}

void SetLevel(Level level) { g_threshold = level; }

void Write(Level level, std::string_view message) {
  if (level < g_threshold) return;
  std::string line;
  line.reserve(message.size() + g_program.size() + 28);
  line.append("<")
      .append(1, Priority(level))
      .append(">")
      .append(LevelName(level))
      .append(" ")
      .append(g_program)
      .append("[");
  const pid_t pid = g_pid.load(std::memory_order_relaxed);
  line.append(std::to_string(pid != 0 ? pid : ::getpid()))
      .append("]: ")
      .append(EscapeControlCharacters(message));
  line.push_back('\n');
  if (!t_keeping) {
    WriteOut(line);
    return;
  }
  if (!g_kept.empty() && g_kept.size() + line.size() > kKeptBytes) Flush();
  if (level >= Level::kWarn || line.size() > kKeptBytes) {
    if (g_kept.empty()) {
      WriteOut(line);
    } else {
      g_kept.append(line);
      Flush();
    }
    return;
  }
  if (g_kept.empty()) g_kept_since = std::chrono::steady_clock::now();
  g_kept.append(line);
}

void KeepLines(std::chrono::milliseconds delay) {
  Flush();
  g_keep_delay = delay;
  t_keeping = delay.count() > 0;
  if (t_keeping && g_kept.capacity() < kKeptBytes) g_kept.reserve(kKeptBytes);
}

std::optional<std::chrono::steady_clock::time_point> KeptLinesDue() {
  if (!t_keeping || g_kept.empty()) return std::nullopt;
  return g_kept_since + g_keep_delay;
}

void Flush() {
  if (!t_keeping || g_kept.empty()) return;
  WriteOut(g_kept);
  g_kept.clear();
}

}  // namespace netgraph::log
