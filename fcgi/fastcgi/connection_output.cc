#include "fcgi/fastcgi/connection_output.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>

namespace netgraph::fcgi::fastcgi {
namespace {

// Writes `segments` from `*next` on until they are all written or the socket is full, advancing
// `*next`, `*left` and the first unwritten segment. False when the connection failed.
bool WriteSome(int fd, iovec** next, std::size_t* left) {
  while (*left > 0) {
    const int count = static_cast<int>(std::min<std::size_t>(*left, IOV_MAX));
    const ssize_t written = ::writev(fd, *next, count);
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK;
    }
    std::size_t done = static_cast<std::size_t>(written);
    while (*left > 0 && done >= (*next)->iov_len) {
      done -= (*next)->iov_len;
      ++*next;
      --*left;
    }
    if (*left > 0) {
      (*next)->iov_base = static_cast<char*>((*next)->iov_base) + done;
      (*next)->iov_len -= done;
    }
  }
  return true;
}

std::size_t Bytes(const iovec* segments, std::size_t count) {
  std::size_t total = 0;
  for (std::size_t i = 0; i < count; ++i) total += segments[i].iov_len;
  return total;
}

}  // namespace

bool ConnectionOutput::Send(int fd, std::vector<iovec>& segments, Clock::time_point wait_until) {
  iovec* next = segments.data();
  std::size_t left = segments.size();
  if (kept_.empty()) {
    // The usual case: the socket takes it all at once, and nothing is copied.
    for (;;) {
      if (!WriteSome(fd, &next, &left)) return false;
      if (Bytes(next, left) <= cap_) break;
      if (!AwaitWritable(fd, wait_until)) return false;
    }
    if (left == 0) return true;
    since_ = Clock::now();
  }
  for (; left > 0; ++next, --left)
    kept_.append(static_cast<const char*>(next->iov_base), next->iov_len);
  while (kept_.size() > cap_) {
    if (!Flush(fd)) return false;
    if (kept_.size() > cap_ && !AwaitWritable(fd, wait_until)) return false;
  }
  return true;
}

bool ConnectionOutput::Send(int fd, std::string_view bytes, Clock::time_point wait_until) {
  std::vector<iovec> segments = {{const_cast<char*>(bytes.data()), bytes.size()}};
  return Send(fd, segments, wait_until);
}

bool ConnectionOutput::Flush(int fd) {
  while (!kept_.empty()) {
    const ssize_t written = ::write(fd, kept_.data(), kept_.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK;
    }
    kept_.erase(0, static_cast<std::size_t>(written));
  }
  return true;
}

bool ConnectionOutput::AwaitWritable(int fd, Clock::time_point until) {
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
    if (left <= 0) return false;
    pollfd wait = {fd, POLLOUT, 0};
    const int ready = ::poll(&wait, 1, static_cast<int>(std::min<long long>(left, INT_MAX)));
    if (ready < 0 && errno != EINTR) return false;
    if (ready > 0) return (wait.revents & (POLLERR | POLLNVAL)) == 0;
  }
}

}  // namespace netgraph::fcgi::fastcgi
