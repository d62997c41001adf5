#include "core/domain/internal/voucher_code.h"

#include <openssl/rand.h>

#include <array>
#include <cstdint>

namespace netgraph::domain {
namespace {

constexpr std::string_view kAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
// Longer input is refused before looking at it: a code with generous separators is well below.
constexpr std::size_t kMaxInputLength = 64;
constexpr std::size_t kGroupLength = 4;

}  // namespace

std::optional<std::string> NormalizeVoucherCode(std::string_view input) {
  if (input.size() > kMaxInputLength) return std::nullopt;
  std::string code;
  code.reserve(kVoucherCodeLength);
  for (char c : input) {
    if (c == '-' || c == ' ') continue;
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c == 'O') c = '0';
    if (c == 'I' || c == 'L') c = '1';
    if (kAlphabet.find(c) == std::string_view::npos) return std::nullopt;
    code.push_back(c);
  }
  if (code.size() != kVoucherCodeLength) return std::nullopt;
  return code;
}

std::string FormatVoucherCode(std::string_view normalized) {
  std::string shown;
  for (std::size_t i = 0; i < normalized.size(); ++i) {
    if (i > 0 && i % kGroupLength == 0) shown.push_back('-');
    shown.push_back(normalized[i]);
  }
  return shown;
}

Result<std::string> GenerateVoucherCode() {
  std::array<unsigned char, kVoucherCodeLength> random{};
  if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1) {
    return Status::Internal("the system's random number generator failed");
  }
  std::string code;
  // 256 is a multiple of 32, so the low five bits of a uniform byte are uniform.
  for (unsigned char byte : random) code.push_back(kAlphabet[byte & 31u]);
  return code;
}

}  // namespace netgraph::domain
