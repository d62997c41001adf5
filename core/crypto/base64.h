// Standard base64 (RFC 4648 alphabet A-Z a-z 0-9 + /) with '=' padding: the text form Solana's
// zk-sdk gives ElGamal public keys and ciphertexts. Decoding is strict: padding is required, no
// whitespace, and the unused bits of the last character must be zero, so every byte string has
// exactly one accepted text.
#ifndef NETGRAPH_CORE_CRYPTO_BASE64_H_
#define NETGRAPH_CORE_CRYPTO_BASE64_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace netgraph::crypto {

std::string Base64Encode(std::span<const std::uint8_t> bytes);

// The bytes of `text`, or an error when it is not strict standard padded base64. Callers check the
// length themselves, so that a well-formed text of the wrong size can be told apart from bad text.
Result<std::vector<std::uint8_t>> Base64Decode(std::string_view text);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_BASE64_H_
