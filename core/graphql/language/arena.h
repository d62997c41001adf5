// A bump allocator for objects that live exactly as long as their owner (a parsed document, a
// schema): one large block after another, freed all at once. Objects placed in an arena are never
// destroyed, so only trivially destructible types may be created in one.
//
// Not thread-safe; an arena is filled by one builder and then only read.
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_ARENA_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_ARENA_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace netgraph::graphql {

class Arena {
 public:
  // `first_block_bytes` sizes the first block; later blocks double, up to 1 MiB.
  explicit Arena(std::size_t first_block_bytes = 4096) : next_block_bytes_(first_block_bytes) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  // `alignment` must be a power of two.
  void* Allocate(std::size_t bytes, std::size_t alignment) {
    std::size_t padding = Padding(cursor_, alignment);
    if (cursor_ == nullptr || static_cast<std::size_t>(end_ - cursor_) < padding + bytes) {
      AddBlock(bytes + alignment);
      padding = Padding(cursor_, alignment);
    }
    char* result = cursor_ + padding;
    cursor_ = result + bytes;
    return result;
  }

  template <typename T, typename... Args>
  T* New(Args&&... args) {
    static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
    return new (Allocate(sizeof(T), alignof(T))) T{std::forward<Args>(args)...};
  }

  // Copies `count` elements into the arena and returns the copy (nullptr when count is 0).
  template <typename T>
  const T* CopyArray(const T* items, std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (count == 0) return nullptr;
    void* memory = Allocate(sizeof(T) * count, alignof(T));
    std::memcpy(memory, items, sizeof(T) * count);
    return static_cast<const T*>(memory);
  }

  // A writable character buffer of `capacity` bytes. ShrinkLast gives back the unused tail of
  // the most recent buffer, so a caller can reserve an upper bound and keep what it wrote.
  char* AllocateChars(std::size_t capacity) { return static_cast<char*>(Allocate(capacity, 1)); }
  void ShrinkLast(char* buffer_end_used) {
    if (buffer_end_used >= blocks_.back().get() && buffer_end_used <= cursor_) {
      cursor_ = buffer_end_used;
    }
  }

  std::string_view CopyString(std::string_view text) {
    if (text.empty()) return {};
    char* memory = AllocateChars(text.size());
    std::memcpy(memory, text.data(), text.size());
    return {memory, text.size()};
  }

  std::size_t bytes_reserved() const { return bytes_reserved_; }

 private:
  static std::size_t Padding(const char* at, std::size_t alignment) {
    return (0 - reinterpret_cast<std::uintptr_t>(at)) & (alignment - 1);
  }

  void AddBlock(std::size_t at_least) {
    std::size_t size = next_block_bytes_ > at_least ? next_block_bytes_ : at_least;
    // Not value-initialised: every byte is written before it is read.
    blocks_.push_back(std::unique_ptr<char[]>(new char[size]));
    cursor_ = blocks_.back().get();
    end_ = cursor_ + size;
    bytes_reserved_ += size;
    constexpr std::size_t kMaxBlockBytes = std::size_t{1} << 20;
    if (next_block_bytes_ < kMaxBlockBytes) next_block_bytes_ *= 2;
  }

  std::vector<std::unique_ptr<char[]>> blocks_;
  char* cursor_ = nullptr;
  char* end_ = nullptr;
  std::size_t next_block_bytes_;
  std::size_t bytes_reserved_ = 0;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_ARENA_H_
