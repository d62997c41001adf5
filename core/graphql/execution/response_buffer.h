// The growing character buffer a response is written into. Appends are inline and check capacity
// once; the executor truncates it to cut back a value that failed. Release hands the text over as
// a std::string without copying.
#ifndef NETGRAPH_CORE_GRAPHQL_EXECUTION_RESPONSE_BUFFER_H_
#define NETGRAPH_CORE_GRAPHQL_EXECUTION_RESPONSE_BUFFER_H_

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace netgraph::graphql {

class ResponseBuffer {
 public:
  explicit ResponseBuffer(std::size_t capacity = 0) { storage_.resize(capacity); }

  std::size_t size() const { return size_; }
  std::string_view view() const { return {storage_.data(), size_}; }

  // `count` writable bytes at the end, which now belong to the text: the caller writes them all.
  char* Extend(std::size_t count) {
    if (storage_.size() - size_ < count) Grow(count);
    char* at = storage_.data() + size_;
    size_ += count;
    return at;
  }
  void Append(std::string_view text) { Copy(Extend(text.size()), text.data(), text.size()); }

  // memcpy, but most pieces of a response are short (keys, names, numbers), and two overlapping
  // fixed-size moves copy those faster than a call.
  static void Copy(char* to, const char* from, std::size_t n) {
    if (n >= 8 && n <= 16) {
      std::memcpy(to, from, 8);
      std::memcpy(to + n - 8, from + n - 8, 8);
    } else if (n >= 4 && n < 8) {
      std::memcpy(to, from, 4);
      std::memcpy(to + n - 4, from + n - 4, 4);
    } else if (n < 4) {
      for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
    } else {
      std::memcpy(to, from, n);
    }
  }
  void Append(char c) { *Extend(1) = c; }

  // Drops everything after the first `size` bytes.
  void Truncate(std::size_t size) { size_ = size; }

  std::string Release() {
    storage_.resize(size_);
    size_ = 0;
    return std::move(storage_);
  }

 private:
  // Out of line, so that Extend stays small enough to inline everywhere.
  void Grow(std::size_t count);

  std::string storage_;  // sized to the capacity; the text is its first size_ bytes
  std::size_t size_ = 0;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_RESPONSE_BUFFER_H_
