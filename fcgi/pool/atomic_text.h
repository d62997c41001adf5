// Text that one process writes and others read from shared memory at the same time: the bytes in
// atomic words, so a torn read is a mix of two texts (which the reader's own sequence counter
// detects: fcgi/pool/scoreboard.h), never undefined behaviour. At most kBytes - 1 bytes; a zero
// byte ends the text.
#ifndef NETGRAPH_FCGI_POOL_ATOMIC_TEXT_H_
#define NETGRAPH_FCGI_POOL_ATOMIC_TEXT_H_

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace netgraph::fcgi {

template <std::size_t kBytes>
class AtomicText {
 public:
  static_assert(kBytes % 8 == 0);

  // Truncates to kBytes - 1 bytes.
  void Store(std::string_view text) {
    text = text.substr(0, kBytes - 1);
    for (std::size_t word = 0; word < words_.size(); ++word) {
      words_[word].store(Word(text, word), std::memory_order_relaxed);
      if (word * 8 >= text.size()) break;  // the rest was zero or is past the terminator
    }
  }

  std::string Load() const {
    std::string text;
    for (const auto& word : words_) {
      const std::uint64_t value = word.load(std::memory_order_relaxed);
      char bytes[8];
      std::memcpy(bytes, &value, 8);
      for (char c : bytes) {
        if (c == '\0') return text;
        text.push_back(c);
      }
    }
    return text;
  }

  // Whether Load would return `text`, without building it (the writer's own check of its label
  // sets, on every request).
  bool Equals(std::string_view text) const {
    if (text.size() >= kBytes) return false;
    for (std::size_t word = 0; word < words_.size(); ++word) {
      if (words_[word].load(std::memory_order_relaxed) != Word(text, word)) return false;
      if (word * 8 + 8 > text.size()) return true;  // this word holds the terminator
    }
    return true;
  }

 private:
  // The word at index `word` of `text` as stored: its eight bytes, zero past the end.
  static std::uint64_t Word(std::string_view text, std::size_t word) {
    std::uint64_t value = 0;
    const std::size_t at = word * 8;
    if (at < text.size()) {
      std::memcpy(&value, text.data() + at, std::min<std::size_t>(8, text.size() - at));
    }
    return value;
  }

  std::array<std::atomic<std::uint64_t>, kBytes / 8> words_;
};

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_ATOMIC_TEXT_H_
