// Messages waiting to be written to one WebSocket connection, and the bound on how many may wait.
#ifndef NETGRAPH_WS_OUTGOING_H_
#define NETGRAPH_WS_OUTGOING_H_

#include <cstddef>
#include <deque>
#include <memory>
#include <string>

#include "ws/options.h"

namespace netgraph::ws {

using SharedText = std::shared_ptr<const std::string>;

// One text message: `head`, then `shared` (when set), then `tail`. A fan-out update shares its
// payload bytes between every recipient; only the envelope around it (which names the recipient's
// operation id) is per connection.
struct OutgoingMessage {
  std::string head;
  SharedText shared;
  std::string tail;

  static OutgoingMessage Text(std::string text);
  std::size_t size() const { return head.size() + (shared ? shared->size() : 0) + tail.size(); }
  // Copies the whole message to `out` (which has room for size() bytes).
  void CopyTo(unsigned char* out) const;
};

// A FIFO with a limit on its length and on the bytes it holds. An empty queue takes any one
// message, however large: the limits bound how far a client lags, not what a single message may be.
class OutgoingQueue {
 public:
  explicit OutgoingQueue(QueueLimits limits) : limits_(limits) {}

  // Appends `message`, or returns false (and changes nothing) when that would pass a limit.
  bool Push(OutgoingMessage message);
  bool empty() const { return messages_.empty(); }
  std::size_t size() const { return messages_.size(); }
  std::size_t bytes() const { return bytes_; }
  const OutgoingMessage& front() const { return messages_.front(); }
  void Pop();
  void Clear();

 private:
  QueueLimits limits_;
  std::deque<OutgoingMessage> messages_;
  std::size_t bytes_ = 0;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_OUTGOING_H_
