// Strict base64url (RFC 4648 §5) decoding as JWS and JWK use it: no padding, no whitespace, and the
// unused bits of the last character must be zero, so every byte string has exactly one accepted
// spelling. Internal to core/auth.
#ifndef NETGRAPH_CORE_AUTH_BASE64URL_H_
#define NETGRAPH_CORE_AUTH_BASE64URL_H_

#include <optional>
#include <string>
#include <string_view>

namespace netgraph::auth {

// The decoded bytes, or nullopt when `text` is not canonical unpadded base64url.
std::optional<std::string> DecodeBase64Url(std::string_view text);

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_BASE64URL_H_
