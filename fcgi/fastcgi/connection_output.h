// What a FastCGI connection owes its peer and the peer has not taken yet. A worker writes replies
// to management records and responses without blocking, as far as the socket takes them, and keeps
// the rest here, so that a peer that does not read never holds the worker (fcgi/pool/worker.cc
// waits for the socket to be writable, calls Flush, and closes a connection whose output has waited
// longer than its deadline, measured from since()).
//
// - At most `cap` bytes are kept. A send that would keep more fails (the peer is not reading: the
//   caller closes the connection), unless the caller lets it wait for the peer to take enough
//   until a deadline (a response: the worker is busy with that request anyway).
// - Bytes go out in the order they were sent: what is kept goes before anything sent later.
#ifndef NETGRAPH_FCGI_FASTCGI_CONNECTION_OUTPUT_H_
#define NETGRAPH_FCGI_FASTCGI_CONNECTION_OUTPUT_H_

#include <sys/uio.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace netgraph::fcgi::fastcgi {

class ConnectionOutput {
 public:
  using Clock = std::chrono::steady_clock;

  explicit ConnectionOutput(std::size_t cap) : cap_(cap) {}

  // Sends `segments` (their bases and lengths are advanced past what was written) on the
  // non-blocking socket `fd`. While more than the cap would be kept, waits for the peer to take
  // more until `wait_until` (a time already past: no wait). False when the connection failed or
  // the peer did not take enough in time.
  bool Send(int fd, std::vector<iovec>& segments, Clock::time_point wait_until);
  bool Send(int fd, std::string_view bytes, Clock::time_point wait_until);

  // Writes what the socket takes of what is kept (when it is writable). False when the connection
  // failed.
  bool Flush(int fd);

  bool empty() const { return kept_.empty(); }
  std::size_t size() const { return kept_.size(); }
  // When the bytes kept now began to wait (meaningless while empty).
  Clock::time_point since() const { return since_; }

 private:
  // Waits until `fd` is writable; false when it failed or `until` passed first.
  static bool AwaitWritable(int fd, Clock::time_point until);

  std::size_t cap_;
  std::string kept_;
  Clock::time_point since_;
};

}  // namespace netgraph::fcgi::fastcgi

#endif  // NETGRAPH_FCGI_FASTCGI_CONNECTION_OUTPUT_H_
