// Base64 in the two spellings netgraph reads (RFC 4648), on libsodium:
//   - standard base64 (A-Z a-z 0-9 + /) with '=' padding: the text form Solana's zk-sdk gives
//     ElGamal public keys and ciphertexts;
//   - base64url (A-Z a-z 0-9 - _) without padding (section 5), as JWS and JWK use it.
// Decoding is strict in both: padding exactly as the spelling has it, no whitespace, and the unused
// bits of the last character must be zero, so every byte string has exactly one accepted text.
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

// The bytes of `text`, or an error when it is not strict unpadded base64url.
Result<std::string> Base64UrlDecode(std::string_view text);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_BASE64_H_
