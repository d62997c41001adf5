// One FastCGI connection from the web server as a worker holds it: what has arrived on it, the
// request being assembled (fcgi/fastcgi/record.h), what its peer has not taken yet
// (fcgi/fastcgi/connection_output.h), and since when its peer has been at it. No event loop here:
// the pool's worker (fcgi/pool/worker.cc) waits on all its connections at once, calls Receive when
// one is readable and Assemble when what it already read may hold the next request.
//
// A connection is kept for further requests when the web server sets FCGI_KEEP_CONN, as nginx does.
// Its peer is not trusted to behave like nginx (docs/security.md, "The FastCGI socket"): replies
// and answers are written without blocking, and every connection has a deadline (Deadline); one
// whose peer breaks the protocol or does not read its replies is over (Receive and Assemble say
// so).
#ifndef NETGRAPH_FCGI_FASTCGI_CONNECTION_H_
#define NETGRAPH_FCGI_FASTCGI_CONNECTION_H_

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "fcgi/fastcgi/connection_output.h"
#include "fcgi/fastcgi/record.h"

namespace netgraph::fcgi::fastcgi {

using Clock = std::chrono::steady_clock;

// Bytes of replies and responses a connection may have waiting for its peer to take them: 256
// connections of a worker keep at most 16 MiB.
inline constexpr std::size_t kMaxKeptOutput = 64 * 1024;

struct Connection {
  Connection(int socket, Limits limits, bool accepted, Clock::time_point now)
      : fd(socket), assembler(limits), arriving(accepted), since(now) {}
  int fd;
  std::string input;
  RequestAssembler assembler;
  ConnectionOutput output{kMaxKeptOutput};  // what its peer has not taken yet
  bool ready = false;                       // assembler holds a complete request
  // A request is on its way (the connection is newly accepted, or part of a request has come)
  // since `since`; otherwise, unless ready, the connection has been idle since then.
  bool arriving;
  Clock::time_point since;
  bool close_when_sent = false;  // answered without FCGI_KEEP_CONN: closed once output is taken
  bool awaits_output = false;    // waits for its socket to be writable, not readable

  void NoteProgress(Clock::time_point now) {
    if (ready) {
      arriving = false;
    } else if (!arriving && (!input.empty() || assembler.in_request())) {
      arriving = true;
      since = now;
    }
  }
  // Nothing of it read, nothing owed, not yet answered: another worker can take it over as it is.
  bool idle() const {
    return !ready && input.empty() && !assembler.in_request() && output.empty() && !close_when_sent;
  }
  // When its peer has had its time: to bring a whole request or take what it is owed
  // (`io_timeout`), or to send the next request (`idle_timeout`). A ready request has none: it
  // waits for the worker.
  std::optional<Clock::time_point> Deadline(std::chrono::milliseconds io_timeout,
                                            std::chrono::milliseconds idle_timeout) const {
    std::optional<Clock::time_point> deadline;
    if (!output.empty()) deadline = output.since() + io_timeout;
    if (ready) return deadline;
    const Clock::time_point peer = since + (arriving ? io_timeout : idle_timeout);
    return deadline ? std::min(*deadline, peer) : peer;
  }
};

// Assembles what `connection` has read, sending any replies the protocol asks for (replies to
// management records wait for no peer: one that does not take them is closed). False when the
// connection is over: it broke the protocol, failed, or its peer does not read.
bool Assemble(Connection& connection, Clock::time_point now);

// Reads what `connection` has and assembles it, until a request is complete. False when the
// connection is over: closed by the peer, failed, or broke the protocol.
bool Receive(Connection& connection, Clock::time_point now);

// Logs that a connection was closed for its peer's sake (too slow, not reading, pushed out), at
// most one line per 10 s per process: a flood of such peers must not flood the log.
void NotePeerClosed(std::string_view why);

}  // namespace netgraph::fcgi::fastcgi

#endif  // NETGRAPH_FCGI_FASTCGI_CONNECTION_H_
