// One-line logs on stderr, which systemd's journal (or the stack's log files) collects:
// "<N><level> <program>[<pid>]: <message>", where <N> is the syslog priority (3 error, 4 warn,
// 6 info, 7 debug) that journald reads off a line and strips (sd-daemon(3)), so `journalctl -p
// warning` filters. The prefix is written everywhere, not only when stderr is the journal: a log
// file or a terminal keeps the same machine-readable level, and one format is simpler to parse.
// Lines at or above NETGRAPH_LOG_LEVEL (debug, info, warn, error; default info) are written whole,
// each write(2) holding whole lines, so lines of forked workers never mix. One event is one line:
// control characters in a message (libpq's multi-line errors, input quoted in a message) are
// written escaped, so nothing can split a line or forge the next one.
#ifndef NETGRAPH_CORE_LOG_H_
#define NETGRAPH_CORE_LOG_H_

#include <chrono>
#include <cstddef>
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

// Kept lines, for the thread of a process that logs a line per request (a pool worker's access
// lines): after KeepLines(delay), the info and debug lines of the thread that called it are kept in
// memory and written together, one write(2) for several, as nginx's `access_log ... buffer=...
// flush=...` does; other threads' lines (a worker's JWKS refresher) are written at once. At most
// kKeptBytes are kept, whole lines only, so that each write stays one that a pipe never mixes with
// another process's (PIPE_BUF); a line that would not fit sends the kept ones first. A warn or
// error line sends the kept ones with it, in one write, so the order holds. The process's loop
// calls Flush once KeptLinesDue() has passed, at most `delay` after the first kept line, and before
// it exits. What is kept when the process is killed is lost: `delay` bounds it. A zero `delay`
// keeps nothing. A forked child keeps none. KeptLinesDue and Flush concern the calling thread's.
inline constexpr std::size_t kKeptBytes = 4096;
void KeepLines(std::chrono::milliseconds delay);
// When the kept lines are due to be written; nullopt when none are kept.
std::optional<std::chrono::steady_clock::time_point> KeptLinesDue();
// Writes the kept lines now.
void Flush();
// `message` without trailing line breaks and with every other control character escaped: "\n",
// "\r", "\t", and "\xHH" for the rest (below 0x20, and DEL).
std::string EscapeControlCharacters(std::string_view message);
inline void Debug(std::string_view message) { Write(Level::kDebug, message); }
inline void Info(std::string_view message) { Write(Level::kInfo, message); }
inline void Warn(std::string_view message) { Write(Level::kWarn, message); }
inline void Error(std::string_view message) { Write(Level::kError, message); }

}  // namespace netgraph::log

#endif  // NETGRAPH_CORE_LOG_H_
