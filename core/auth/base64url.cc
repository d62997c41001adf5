#include "core/auth/base64url.h"

#include <cstdint>

namespace netgraph::auth {

namespace {

// The 6-bit value of a base64url character, or -1.
int SextetOf(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

}  // namespace

std::optional<std::string> DecodeBase64Url(std::string_view text) {
  // One leftover character carries only 6 bits: never a whole byte.
  if (text.size() % 4 == 1) return std::nullopt;
  std::string bytes;
  bytes.reserve(text.size() / 4 * 3 + 2);
  std::uint32_t buffer = 0;
  int buffered_bits = 0;
  for (char c : text) {
    int sextet = SextetOf(c);
    if (sextet < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<std::uint32_t>(sextet);
    buffered_bits += 6;
    if (buffered_bits >= 8) {
      buffered_bits -= 8;
      bytes.push_back(static_cast<char>((buffer >> buffered_bits) & 0xff));
    }
  }
  if ((buffer & ((1u << buffered_bits) - 1)) != 0) return std::nullopt;
  return bytes;
}

}  // namespace netgraph::auth
