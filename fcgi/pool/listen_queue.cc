#include "fcgi/pool/listen_queue.h"

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace netgraph::fcgi {
namespace {

// A unix listening socket's queue through sock_diag, which reports for a listener the connections
// waiting to be accepted (rqueue) and the backlog (wqueue). Unprivileged: the same query `ss -xl`
// makes.
std::optional<ListenQueue> UnixListenQueue(ino_t inode) {
  int diag = ::socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (diag < 0) return std::nullopt;
  struct {
    nlmsghdr header;
    unix_diag_req request;
  } query{};
  query.header.nlmsg_len = sizeof(query);
  query.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
  query.header.nlmsg_flags = NLM_F_REQUEST;
  query.request.sdiag_family = AF_UNIX;
  query.request.udiag_states = 1u << 10;  // TCP_LISTEN
  query.request.udiag_ino = static_cast<__u32>(inode);
  query.request.udiag_show = UDIAG_SHOW_RQLEN;
  query.request.udiag_cookie[0] = query.request.udiag_cookie[1] = ~0u;  // INET_DIAG_NOCOOKIE
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  std::optional<ListenQueue> queue;
  if (::sendto(diag, &query, sizeof(query), 0, reinterpret_cast<sockaddr*>(&kernel),
               sizeof(kernel)) == static_cast<ssize_t>(sizeof(query))) {
    pollfd ready{diag, POLLIN, 0};
    alignas(nlmsghdr) char buffer[8192];
    ssize_t length = ::poll(&ready, 1, 200) == 1 ? ::recv(diag, buffer, sizeof(buffer), 0) : -1;
    // The reply walked by hand: the netlink macros are C casts the build warns about.
    const auto* message = reinterpret_cast<const nlmsghdr*>(buffer);
    const std::size_t end =
        length >= static_cast<ssize_t>(sizeof(nlmsghdr))
            ? std::min<std::size_t>(message->nlmsg_len, static_cast<std::size_t>(length))
            : 0;
    std::size_t at = NLMSG_ALIGN(sizeof(nlmsghdr)) + NLMSG_ALIGN(sizeof(unix_diag_msg));
    while (message->nlmsg_type == SOCK_DIAG_BY_FAMILY && at + sizeof(rtattr) <= end) {
      const auto* attribute = reinterpret_cast<const rtattr*>(buffer + at);
      if (attribute->rta_len < sizeof(rtattr) || at + attribute->rta_len > end) break;
      if (attribute->rta_type == UNIX_DIAG_RQLEN &&
          attribute->rta_len >= RTA_LENGTH(sizeof(unix_diag_rqlen))) {
        const auto* lengths = reinterpret_cast<const unix_diag_rqlen*>(buffer + at + RTA_LENGTH(0));
        queue = ListenQueue{lengths->udiag_rqueue, lengths->udiag_wqueue};
      }
      at += RTA_ALIGN(attribute->rta_len);
    }
  }
  ::close(diag);
  return queue;
}

}  // namespace

std::optional<ListenQueue> ReadListenQueue(int listen_fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (::getsockname(listen_fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    return std::nullopt;
  }
  if (address.ss_family == AF_UNIX) {
    struct stat status {};
    if (::fstat(listen_fd, &status) != 0) return std::nullopt;
    return UnixListenQueue(status.st_ino);
  }
  // For a listening TCP socket Linux reports the accept queue in tcpi_unacked and its bound in
  // tcpi_sacked.
  tcp_info info{};
  socklen_t info_length = sizeof(info);
  if (::getsockopt(listen_fd, IPPROTO_TCP, TCP_INFO, &info, &info_length) != 0) return std::nullopt;
  return ListenQueue{info.tcpi_unacked, info.tcpi_sacked};
}

}  // namespace netgraph::fcgi
