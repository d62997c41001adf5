#include "core/crypto/base58.h"

#include <algorithm>
#include <vector>

namespace netgraph::crypto {
namespace {

constexpr std::string_view kAlphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

int DigitValue(char c) {
  std::size_t position = kAlphabet.find(c);
  return position == std::string_view::npos ? -1 : static_cast<int>(position);
}

}  // namespace

std::string Base58Encode(std::span<const std::uint8_t> bytes) {
  std::size_t zeros = 0;
  while (zeros < bytes.size() && bytes[zeros] == 0) ++zeros;
  // Base-58 digits of the remaining big-endian number, least significant first.
  std::vector<std::uint8_t> digits;
  digits.reserve(bytes.size() * 138 / 100 + 1);
  for (std::size_t i = zeros; i < bytes.size(); ++i) {
    unsigned carry = bytes[i];
    for (std::uint8_t& digit : digits) {
      carry += static_cast<unsigned>(digit) << 8;
      digit = static_cast<std::uint8_t>(carry % 58);
      carry /= 58;
    }
    while (carry > 0) {
      digits.push_back(static_cast<std::uint8_t>(carry % 58));
      carry /= 58;
    }
  }
  std::string text(zeros, '1');
  for (auto digit = digits.rbegin(); digit != digits.rend(); ++digit) {
    text.push_back(kAlphabet[*digit]);
  }
  return text;
}

Status Base58DecodeExact(std::string_view text, std::span<std::uint8_t> out,
                         std::size_t max_length) {
  if (text.empty()) return Status::InvalidArgument("base58 text is empty");
  if (text.size() > max_length) {
    return Status::InvalidArgument("base58 text is longer than " + std::to_string(max_length) +
                                   " characters");
  }
  std::size_t ones = 0;
  while (ones < text.size() && text[ones] == '1') ++ones;
  // Bytes of the number after the leading '1's, least significant first.
  std::vector<std::uint8_t> value;
  for (std::size_t i = ones; i < text.size(); ++i) {
    int digit = DigitValue(text[i]);
    if (digit < 0)
      return Status::InvalidArgument("base58 text has a character outside the alphabet");
    unsigned carry = static_cast<unsigned>(digit);
    for (std::uint8_t& byte : value) {
      carry += static_cast<unsigned>(byte) * 58;
      byte = static_cast<std::uint8_t>(carry & 0xff);
      carry >>= 8;
    }
    while (carry > 0) {
      value.push_back(static_cast<std::uint8_t>(carry & 0xff));
      carry >>= 8;
    }
  }
  if (ones + value.size() != out.size()) {
    return Status::InvalidArgument("base58 text must decode to exactly " +
                                   std::to_string(out.size()) + " bytes");
  }
  std::fill_n(out.begin(), ones, std::uint8_t{0});
  std::copy(value.rbegin(), value.rend(), out.begin() + static_cast<std::ptrdiff_t>(ones));
  return Status::Ok();
}

}  // namespace netgraph::crypto
