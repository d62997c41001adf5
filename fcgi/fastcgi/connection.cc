#include "fcgi/fastcgi/connection.h"

#include <unistd.h>

#include <cerrno>
#include <string>

#include "core/log.h"

namespace netgraph::fcgi::fastcgi {

void NotePeerClosed(std::string_view why) {
  static Clock::time_point next_line;
  static long unlogged = 0;
  const Clock::time_point now = Clock::now();
  if (now < next_line) {
    ++unlogged;
    return;
  }
  std::string line = "closing a FastCGI connection: ";
  line.append(why);
  if (unlogged > 0) {
    line.append(" (and ")
        .append(std::to_string(unlogged))
        .append(" more closed for their peer's sake since the last such line)");
  }
  log::Warn(line);
  unlogged = 0;
  next_line = now + std::chrono::seconds(10);
}

bool Assemble(Connection& connection, Clock::time_point now) {
  std::string replies;
  const auto progress = connection.assembler.Consume(connection.input, &replies);
  if (!replies.empty() && !connection.output.Send(connection.fd, replies, now)) {
    NotePeerClosed("its peer does not read the replies to its management records");
    return false;
  }
  if (progress == RequestAssembler::Progress::kFailed) {
    log::Warn("closing a FastCGI connection: " + std::string(connection.assembler.error()));
    return false;
  }
  connection.ready = progress == RequestAssembler::Progress::kReady;
  connection.NoteProgress(now);
  return true;
}

bool Receive(Connection& connection, Clock::time_point now) {
  // Read into one buffer for the process and append what came: growing the connection's input by
  // the whole read size would zero 64 KiB for every request of a few hundred bytes.
  constexpr std::size_t kReadBytes = 64 * 1024;
  static char buffer[kReadBytes];
  for (int reads = 0; reads < 16; ++reads) {
    const ssize_t got = ::read(connection.fd, buffer, kReadBytes);
    if (got == 0) return false;
    if (got < 0) {
      if (errno == EINTR) continue;
      return errno == EAGAIN;
    }
    connection.input.append(buffer, static_cast<std::size_t>(got));
    if (!Assemble(connection, now)) return false;
    // A complete request is served first; a peer behind on its replies is read again once it has
    // taken them.
    if (connection.ready || !connection.output.empty()) break;
    if (static_cast<std::size_t>(got) < kReadBytes) break;
  }
  return true;
}

}  // namespace netgraph::fcgi::fastcgi
