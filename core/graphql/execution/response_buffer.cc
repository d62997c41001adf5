#include "core/graphql/execution/response_buffer.h"

namespace netgraph::graphql {

void ResponseBuffer::Grow(std::size_t count) {
  std::size_t capacity = storage_.size() * 2;
  if (capacity < size_ + count) capacity = size_ + count;
  storage_.resize(capacity);
}

}  // namespace netgraph::graphql
