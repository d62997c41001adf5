#include "core/crypto/hex.h"

namespace netgraph::crypto {
namespace {

constexpr char kDigits[] = "0123456789abcdef";

int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

std::string HexEncode(std::span<const std::uint8_t> bytes) {
  std::string text;
  text.reserve(bytes.size() * 2);
  for (std::uint8_t byte : bytes) {
    text.push_back(kDigits[byte >> 4]);
    text.push_back(kDigits[byte & 0x0f]);
  }
  return text;
}

Status HexDecodeExact(std::string_view text, std::span<std::uint8_t> out) {
  if (text.size() != out.size() * 2) {
    return Status::InvalidArgument("hex text must have exactly " + std::to_string(out.size() * 2) +
                                   " digits");
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    int high = DigitValue(text[2 * i]);
    int low = DigitValue(text[2 * i + 1]);
    if (high < 0 || low < 0) return Status::InvalidArgument("hex text must use only 0-9 and a-f");
    out[i] = static_cast<std::uint8_t>(high << 4 | low);
  }
  return Status::Ok();
}

}  // namespace netgraph::crypto
