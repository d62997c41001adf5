// A hash map from names to small values, for the lookups on the hot paths of validation and
// execution (type by name, field by name). Keys are string_views that must outlive the map (the
// schema owns the text they point into). Open addressing with linear probing, filled once while a
// schema is built, then only read.
#ifndef NETGRAPH_CORE_GRAPHQL_UTILITIES_NAME_MAP_H_
#define NETGRAPH_CORE_GRAPHQL_UTILITIES_NAME_MAP_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace netgraph::graphql {

template <typename T>
class NameMap {
 public:
  // Adds `key` unless it is present; returns whether it was added.
  bool Insert(std::string_view key, T value) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    std::size_t i = Probe(key);
    if (slots_[i].used) return false;
    slots_[i] = Slot{key, std::move(value), true};
    ++size_;
    return true;
  }

  const T* Find(std::string_view key) const {
    if (size_ == 0) return nullptr;
    const Slot& slot = slots_[Probe(key)];
    return slot.used ? &slot.value : nullptr;
  }

  std::size_t size() const { return size_; }

 private:
  struct Slot {
    std::string_view key;
    T value{};
    bool used = false;
  };

  static std::uint64_t Hash(std::string_view key) {
    std::uint64_t hash = 14695981039346656037ull;  // FNV-1a
    for (char c : key) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ull;
    }
    return hash;
  }

  // The slot holding `key`, or the empty slot where it would go.
  std::size_t Probe(std::string_view key) const {
    std::size_t mask = slots_.size() - 1;
    std::size_t i = static_cast<std::size_t>(Hash(key)) & mask;
    while (slots_[i].used && slots_[i].key != key) i = (i + 1) & mask;
    return i;
  }

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 8 : old.size() * 2, Slot{});
    for (Slot& slot : old) {
      if (slot.used) slots_[Probe(slot.key)] = std::move(slot);
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_UTILITIES_NAME_MAP_H_
