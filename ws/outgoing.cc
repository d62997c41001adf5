#include "ws/outgoing.h"

#include <cstring>
#include <utility>

namespace netgraph::ws {

OutgoingMessage OutgoingMessage::Text(std::string text) {
  OutgoingMessage message;
  message.head = std::move(text);
  return message;
}

void OutgoingMessage::CopyTo(unsigned char* out) const {
  std::memcpy(out, head.data(), head.size());
  out += head.size();
  if (shared) {
    std::memcpy(out, shared->data(), shared->size());
    out += shared->size();
  }
  std::memcpy(out, tail.data(), tail.size());
}

bool OutgoingQueue::Push(OutgoingMessage message) {
  std::size_t size = message.size();
  if (!messages_.empty() &&
      (messages_.size() >= limits_.max_messages || bytes_ + size > limits_.max_bytes)) {
    return false;
  }
  bytes_ += size;
  messages_.push_back(std::move(message));
  return true;
}

void OutgoingQueue::Pop() {
  bytes_ -= messages_.front().size();
  messages_.pop_front();
}

void OutgoingQueue::Clear() {
  messages_.clear();
  bytes_ = 0;
}

}  // namespace netgraph::ws
