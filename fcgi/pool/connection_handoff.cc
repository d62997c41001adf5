#include "fcgi/pool/connection_handoff.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <string>

namespace netgraph::fcgi {

// An atomic that needed a lock would keep it in this process, not in the shared page.
static_assert(std::atomic<int>::is_always_lock_free);

namespace {

// A message of the queue: one byte of data, which its descriptors travel with, and room for the
// largest message's descriptors.
struct Message {
  explicit Message(std::size_t control_length) {
    header.msg_iov = &data;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = control_length;
  }
  Message(const Message&) = delete;
  Message& operator=(const Message&) = delete;

  char byte = 0;
  iovec data = {&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * ConnectionHandoff::kMaxPerMessage)];
  msghdr header = {};
};

}  // namespace

Result<std::unique_ptr<ConnectionHandoff>> ConnectionHandoff::Create(SharedMemory& memory) {
  NETGRAPH_ASSIGN_OR_RETURN(void* part, memory.Allocate(kSharedBytes));
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
    return Status::Internal(std::string("making the connection hand-off queue: ") +
                            std::strerror(errno));
  }
  return std::unique_ptr<ConnectionHandoff>(
      new ConnectionHandoff(pair[0], pair[1], new (part) std::atomic<int>(0)));
}

ConnectionHandoff::~ConnectionHandoff() {
  ::close(put_fd_);
  ::close(take_fd_);
}

bool ConnectionHandoff::Put(const int* fds, std::size_t count) const {
  if (count == 0 || count > kMaxPerMessage) {
    errno = EINVAL;
    return false;
  }
  Message message(CMSG_SPACE(sizeof(int) * count));
  cmsghdr* header = CMSG_FIRSTHDR(&message.header);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int) * count);
  std::memcpy(CMSG_DATA(header), fds, sizeof(int) * count);
  ssize_t sent;
  do {
    sent = ::sendmsg(put_fd_, &message.header, MSG_DONTWAIT | MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  return sent == 1;
}

bool ConnectionHandoff::Take(std::vector<int>* fds) const {
  Message message(sizeof(Message::control));
  ssize_t got;
  do {
    got = ::recvmsg(take_fd_, &message.header, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
  } while (got < 0 && errno == EINTR);
  if (got <= 0) return false;
  for (cmsghdr* header = CMSG_FIRSTHDR(&message.header); header != nullptr;
       header = CMSG_NXTHDR(&message.header, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < count; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
      fds->push_back(fd);
    }
  }
  return true;
}

}  // namespace netgraph::fcgi
