// A stack that keeps its first N elements inline, so that the shallow stacks of a typical walk
// never allocate; deeper ones spill to the heap. For small values: elements are returned by value.
#ifndef NETGRAPH_CORE_GRAPHQL_UTILITIES_SMALL_STACK_H_
#define NETGRAPH_CORE_GRAPHQL_UTILITIES_SMALL_STACK_H_

#include <array>
#include <cstddef>
#include <vector>

namespace netgraph::graphql {

template <typename T, std::size_t N>
class SmallStack {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  void push_back(const T& value) {
    if (size_ < N) {
      inline_[size_] = value;
    } else {
      spilled_.push_back(value);
    }
    ++size_;
  }
  void pop_back() {
    --size_;
    if (size_ >= N) spilled_.pop_back();
  }
  T operator[](std::size_t i) const { return i < N ? inline_[i] : spilled_[i - N]; }
  T back() const { return (*this)[size_ - 1]; }

 private:
  std::array<T, N> inline_{};
  std::vector<T> spilled_;
  std::size_t size_ = 0;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_UTILITIES_SMALL_STACK_H_
