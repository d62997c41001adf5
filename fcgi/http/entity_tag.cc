#include "fcgi/http/entity_tag.h"

namespace netgraph::fcgi {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t'; }

// RFC 9110's etagc: visible ASCII but '"', and obs-text.
bool IsTagCharacter(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte == 0x21 || (byte >= 0x23 && byte <= 0x7e) || byte >= 0x80;
}

}  // namespace

std::string EntityTag(char representation, std::string_view digest) {
  std::string tag = "\"";
  tag.push_back(representation);
  tag.push_back('-');
  tag.append(digest);
  tag.push_back('"');
  return tag;
}

bool IfNoneMatchNames(std::string_view field_value, std::string_view tag) {
  std::string_view rest = field_value;
  while (!rest.empty() && IsSpace(rest.front())) rest.remove_prefix(1);
  while (!rest.empty() && IsSpace(rest.back())) rest.remove_suffix(1);
  if (rest == "*") return true;
  // The opaque tag, quotes included, compared without W/ on either side.
  if (tag.starts_with("W/")) tag.remove_prefix(2);
  bool matched = false;
  bool expect_tag = true;  // after the start or a comma; a list may hold empty elements
  while (!rest.empty()) {
    const char c = rest.front();
    if (IsSpace(c)) {
      rest.remove_prefix(1);
    } else if (c == ',') {
      expect_tag = true;
      rest.remove_prefix(1);
    } else {
      if (!expect_tag) return false;
      if (rest.starts_with("W/")) rest.remove_prefix(2);
      if (rest.empty() || rest.front() != '"') return false;
      std::size_t end = 1;
      while (end < rest.size() && rest[end] != '"') {
        if (!IsTagCharacter(rest[end])) return false;
        ++end;
      }
      if (end == rest.size()) return false;  // no closing quote
      if (rest.substr(0, end + 1) == tag) matched = true;
      rest.remove_prefix(end + 1);
      expect_tag = false;
    }
  }
  return matched;
}

}  // namespace netgraph::fcgi
