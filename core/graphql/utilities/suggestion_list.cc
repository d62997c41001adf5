#include "core/graphql/utilities/suggestion_list.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <utility>

#include "core/graphql/language/utf8.h"

namespace netgraph::graphql {

namespace {

constexpr std::size_t kMaxSuggestions = 5;
constexpr std::string_view kDidYouMean = " Did you mean ";

// The UTF-16 code units of `text`, ASCII letters lowered (graphql-js lowers with
// toLowerCase(); names are ASCII).
std::u16string LowerUtf16(std::string_view text) {
  std::u16string units;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    utf8::Decoded decoded = utf8::Decode(p, end);
    char32_t c = decoded.code_point;
    if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
    if (c > 0xFFFF) {
      c -= 0x10000;
      units.push_back(static_cast<char16_t>(0xD800 + (c >> 10)));
      units.push_back(static_cast<char16_t>(0xDC00 + (c & 0x3FF)));
    } else {
      units.push_back(static_cast<char16_t>(c));
    }
    p += decoded.length;
  }
  return units;
}

// Damerau-Levenshtein distance (adjacent swaps count one edit) between lowered strings, where a
// change of case only counts one edit; nullopt beyond `threshold`.
class LexicalDistance {
 public:
  explicit LexicalDistance(std::string_view input) : input_(input), lower_(LowerUtf16(input)) {}

  std::optional<std::size_t> Measure(std::string_view option, std::size_t threshold) const {
    if (option == input_) return 0;
    std::u16string option_lower = LowerUtf16(option);
    if (option_lower == lower_) return 1;

    const std::u16string* a = &option_lower;
    const std::u16string* b = &lower_;
    if (a->size() < b->size()) std::swap(a, b);
    const std::size_t a_length = a->size();
    const std::size_t b_length = b->size();
    if (a_length - b_length > threshold) return std::nullopt;

    std::array<std::vector<std::size_t>, 3> rows;
    for (auto& row : rows) row.assign(b_length + 1, 0);
    for (std::size_t j = 0; j <= b_length; ++j) rows[0][j] = j;

    for (std::size_t i = 1; i <= a_length; ++i) {
      const std::vector<std::size_t>& up = rows[(i - 1) % 3];
      std::vector<std::size_t>& current = rows[i % 3];
      std::size_t smallest = current[0] = i;
      for (std::size_t j = 1; j <= b_length; ++j) {
        std::size_t cost = (*a)[i - 1] == (*b)[j - 1] ? 0 : 1;
        std::size_t cell = std::min({up[j] + 1, current[j - 1] + 1, up[j - 1] + cost});
        if (i > 1 && j > 1 && (*a)[i - 1] == (*b)[j - 2] && (*a)[i - 2] == (*b)[j - 1]) {
          cell = std::min(cell, rows[(i - 2) % 3][j - 2] + 1);  // transposition
        }
        smallest = std::min(smallest, cell);
        current[j] = cell;
      }
      // No cell of later rows can be smaller than the smallest of this one.
      if (smallest > threshold) return std::nullopt;
    }
    std::size_t distance = rows[a_length % 3][b_length];
    if (distance > threshold) return std::nullopt;
    return distance;
  }

 private:
  std::string_view input_;
  std::u16string lower_;
};

}  // namespace

int NaturalCompare(std::string_view a, std::string_view b) {
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      // graphql-js reads a run of digits but stops after a leading zero.
      std::uint64_t a_number = 0;
      do {
        a_number = a_number * 10 + static_cast<std::uint64_t>(a[i++] - '0');
      } while (i < a.size() && is_digit(a[i]) && a_number > 0);
      std::uint64_t b_number = 0;
      do {
        b_number = b_number * 10 + static_cast<std::uint64_t>(b[j++] - '0');
      } while (j < b.size() && is_digit(b[j]) && b_number > 0);
      if (a_number < b_number) return -1;
      if (a_number > b_number) return 1;
    } else {
      if (a[i] < b[j]) return -1;
      if (a[i] > b[j]) return 1;
      ++i;
      ++j;
    }
  }
  return static_cast<int>(utf8::Utf16Length(a)) - static_cast<int>(utf8::Utf16Length(b));
}

std::vector<std::string_view> SuggestionList(std::string_view input,
                                             const std::vector<std::string_view>& options) {
  LexicalDistance lexical_distance(input);
  const std::size_t threshold = utf8::Utf16Length(input) * 4 / 10 + 1;
  std::vector<std::pair<std::string_view, std::size_t>> found;
  for (std::string_view option : options) {
    bool seen = std::any_of(found.begin(), found.end(),
                            [&](const auto& entry) { return entry.first == option; });
    if (seen) continue;
    if (std::optional<std::size_t> distance = lexical_distance.Measure(option, threshold)) {
      found.emplace_back(option, *distance);
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) {
    if (x.second != y.second) return x.second < y.second;
    return NaturalCompare(x.first, y.first) < 0;
  });
  std::vector<std::string_view> result;
  result.reserve(found.size());
  for (const auto& entry : found) result.push_back(entry.first);
  return result;
}

std::string DidYouMean(const std::vector<std::string_view>& suggestions,
                       std::string_view sub_message) {
  if (suggestions.empty()) return {};
  std::string message(kDidYouMean);
  if (!sub_message.empty()) {
    message += sub_message;
    message += ' ';
  }
  auto quoted = [](std::string_view s) { return "\"" + std::string(s) + "\""; };
  if (suggestions.size() == 1) return message + quoted(suggestions[0]) + "?";
  if (suggestions.size() == 2) {
    return message + quoted(suggestions[0]) + " or " + quoted(suggestions[1]) + "?";
  }
  std::size_t shown = std::min(suggestions.size(), kMaxSuggestions);
  for (std::size_t i = 0; i + 1 < shown; ++i) message += quoted(suggestions[i]) + ", ";
  return message + "or " + quoted(suggestions[shown - 1]) + "?";
}

void StripSuggestions(std::string* message) {
  const std::size_t hint = message->rfind(kDidYouMean);
  if (hint != std::string::npos && message->ends_with('?')) message->resize(hint);
}

}  // namespace netgraph::graphql
