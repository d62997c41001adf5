// One-line logs on stderr, which systemd's journal (or the stack's log files) collects:
// "<N><level> <program>[<pid>]: <message>", where <N> is the syslog priority (3 error, 4 warn,
// 6 info, 7 debug) that journald reads off a line and strips (sd-daemon(3)), so `journalctl -p
// warning` filters. The prefix is written everywhere, not only when stderr is the journal: a log
// file or a terminal keeps the same machine-readable level, and one format is simpler to parse.
// Lines at or above NETGRAPH_LOG_LEVEL (debug, info, warn, error; default info) are written with a
// single write(2), so lines of forked workers never mix. One event is one line: control characters
// in a message (libpq's multi-line errors, input quoted in a message) are written escaped, so
// nothing can split a line or forge the next one.
#ifndef NETGRAPH_CORE_LOG_H_
#define NETGRAPH_CORE_LOG_H_

#include <optional>
#include <string>
#include <string_view>

namespace netgraph::log {

enum class Level { kDebug, kInfo, kWarn, kError };

// Names the program in every line; reads NETGRAPH_LOG_LEVEL. Call once at start-up.
void Init(std::string_view program);

// "debug", "info", "warn" or "error"; nullopt for anything else.
std::optional<Level> ParseLevel(std::string_view name);
// The threshold from now on: a configuration (re)load applies NETGRAPH_LOG_LEVEL from its file.
void SetLevel(Level level);

void Write(Level level, std::string_view message);
// `message` without trailing line breaks and with every other control character escaped: "\n",
// "\r", "\t", and "\xHH" for the rest (below 0x20, and DEL).
std::string EscapeControlCharacters(std::string_view message);
inline void Debug(std::string_view message) { Write(Level::kDebug, message); }
inline void Info(std::string_view message) { Write(Level::kInfo, message); }
inline void Warn(std::string_view message) { Write(Level::kWarn, message); }
inline void Error(std::string_view message) { Write(Level::kError, message); }

}  // namespace netgraph::log

#endif  // NETGRAPH_CORE_LOG_H_
