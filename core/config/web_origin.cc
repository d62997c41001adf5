#include "core/config/web_origin.h"

#include <algorithm>
#include <cctype>

namespace netgraph::config {

std::optional<std::string> ParseWebOrigin(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string_view rest = lower;
  if (rest.substr(0, 7) == "http://") {
    rest.remove_prefix(7);
  } else if (rest.substr(0, 8) == "https://") {
    rest.remove_prefix(8);
  } else {
    return std::nullopt;
  }
  std::size_t host_end = 0;
  if (!rest.empty() && rest.front() == '[') {
    host_end = rest.find(']');
    if (host_end == std::string_view::npos || host_end < 2) return std::nullopt;
    for (char c : rest.substr(1, host_end - 1)) {
      if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') {
        return std::nullopt;
      }
    }
    ++host_end;
  } else {
    while (host_end < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[host_end])) ||
                                      rest[host_end] == '-' || rest[host_end] == '.')) {
      ++host_end;
    }
    if (host_end == 0) return std::nullopt;
  }
  std::string_view port = rest.substr(host_end);
  if (port.empty()) return lower;
  if (port.front() != ':' || port.size() < 2 || port.size() > 6) return std::nullopt;
  if (!std::all_of(port.begin() + 1, port.end(),
                   [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    return std::nullopt;
  }
  return lower;
}

}  // namespace netgraph::config
