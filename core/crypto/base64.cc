#include "core/crypto/base64.h"

#include <sodium.h>

namespace netgraph::crypto {
namespace {

// Decodes `text` in libsodium's `variant` into a container of single bytes; false when the text
// is not strict in that variant.
template <typename Bytes>
bool DecodeStrict(std::string_view text, int variant, Bytes& bytes) {
  bytes.resize(text.size() / 4 * 3 + 3);
  std::size_t length = 0;
  const char* end = nullptr;
  // No characters to ignore, and `end` must reach the end of the text: libsodium otherwise stops
  // quietly at the first character it cannot use.
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(bytes.data()), bytes.size(), text.data(),
                        text.size(), /*ignore=*/nullptr, &length, &end, variant) != 0 ||
      end != text.data() + text.size()) {
    return false;
  }
  bytes.resize(length);
  return true;
}

}  // namespace

std::string Base64Encode(std::span<const std::uint8_t> bytes) {
  constexpr int kVariant = sodium_base64_VARIANT_ORIGINAL;
  // sodium_bin2base64 writes a terminating NUL, which the string's size leaves out.
  std::string text(sodium_base64_ENCODED_LEN(bytes.size(), kVariant) - 1, '\0');
  sodium_bin2base64(text.data(), text.size() + 1, bytes.data(), bytes.size(), kVariant);
  return text;
}

Result<std::vector<std::uint8_t>> Base64Decode(std::string_view text) {
  std::vector<std::uint8_t> bytes;
  if (!DecodeStrict(text, sodium_base64_VARIANT_ORIGINAL, bytes)) {
    return Status::InvalidArgument("not standard padded base64");
  }
  return bytes;
}

Result<std::string> Base64UrlDecode(std::string_view text) {
  std::string bytes;
  if (!DecodeStrict(text, sodium_base64_VARIANT_URLSAFE_NO_PADDING, bytes)) {
    return Status::InvalidArgument("not unpadded base64url");
  }
  return bytes;
}

}  // namespace netgraph::crypto
