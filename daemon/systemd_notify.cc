#include "daemon/systemd_notify.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>

namespace netgraph::daemon {

namespace {

// Sends `state` with `fds` (at most kMaxFdsPerMessage) as SCM_RIGHTS.
bool Send(std::string_view state, const int* fds, std::size_t count) {
  const char* path = std::getenv("NOTIFY_SOCKET");
  if (path == nullptr || path[0] == '\0') return false;
  std::size_t length = std::strlen(path);
  sockaddr_un address{};
  if (length >= sizeof(address.sun_path) || (path[0] != '/' && path[0] != '@')) return false;
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path, length);
  if (path[0] == '@') address.sun_path[0] = '\0';  // abstract namespace
  int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  iovec data{const_cast<char*>(state.data()), state.size()};
  msghdr message{};
  message.msg_name = &address;
  message.msg_namelen = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + length);
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  std::vector<char> control;
  if (count > 0) {
    control.assign(CMSG_SPACE(sizeof(int) * count), 0);
    message.msg_control = control.data();
    message.msg_controllen = control.size();
    cmsghdr* header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int) * count);
    std::memcpy(CMSG_DATA(header), fds, sizeof(int) * count);
  }
  ssize_t sent = ::sendmsg(fd, &message, MSG_NOSIGNAL);
  ::close(fd);
  return sent == static_cast<ssize_t>(state.size());
}

// The kernel's limit on descriptors in one message (SCM_MAX_FD).
constexpr std::size_t kMaxFdsPerMessage = 253;

}  // namespace

bool NotifySystemd(std::string_view state) { return Send(state, nullptr, 0); }

bool StoreInSystemd(const std::vector<int>& fds, std::string_view name) {
  const std::string state = "FDSTORE=1\nFDNAME=" + std::string(name);
  for (std::size_t at = 0; at < fds.size(); at += kMaxFdsPerMessage) {
    const std::size_t count = std::min(kMaxFdsPerMessage, fds.size() - at);
    if (!Send(state, fds.data() + at, count)) return false;
  }
  return true;
}

}  // namespace netgraph::daemon
