#include "core/auth/base64url.h"

#include <sodium.h>

namespace netgraph::auth {

std::optional<std::string> DecodeBase64Url(std::string_view text) {
  std::string bytes(text.size() / 4 * 3 + 2, '\0');
  std::size_t length = 0;
  const char* end = nullptr;
  // libsodium refuses padding, stray characters and set unused bits for this variant; `end` must
  // still reach the end of the text, since it otherwise stops quietly at what it cannot use.
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(bytes.data()), bytes.size(), text.data(),
                        text.size(), /*ignore=*/nullptr, &length, &end,
                        sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      end != text.data() + text.size()) {
    return std::nullopt;
  }
  bytes.resize(length);
  return bytes;
}

}  // namespace netgraph::auth
