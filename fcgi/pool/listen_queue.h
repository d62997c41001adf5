// The pool's listen queue, as /status and /metrics show it (fcgi/pool/status_page.h): how many
// connections wait to be accepted, and the queue's bound.
#ifndef NETGRAPH_FCGI_POOL_LISTEN_QUEUE_H_
#define NETGRAPH_FCGI_POOL_LISTEN_QUEUE_H_

#include <optional>

namespace netgraph::fcgi {

// The connections waiting in the listening socket's accept queue and the queue's bound, as the
// kernel reports them: sock_diag (UNIX_DIAG_RQLEN) for a unix socket, TCP_INFO for TCP; nullopt
// when it does not say.
struct ListenQueue {
  unsigned waiting = 0;
  unsigned limit = 0;
};
std::optional<ListenQueue> ReadListenQueue(int listen_fd);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_LISTEN_QUEUE_H_
