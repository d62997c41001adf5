// Base58 with the Bitcoin alphabet, as Solana writes addresses and signatures: a big-endian base
// conversion without checksum, where each leading zero byte becomes a leading '1'.
#ifndef NETGRAPH_CORE_CRYPTO_BASE58_H_
#define NETGRAPH_CORE_CRYPTO_BASE58_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/status.h"

namespace netgraph::crypto {

// Solana's limits on the text forms: an address is 32 bytes in at most 44 characters, a signature
// 64 bytes in at most 88.
inline constexpr std::size_t kMaxBase58AddressLength = 44;
inline constexpr std::size_t kMaxBase58SignatureLength = 88;

std::string Base58Encode(std::span<const std::uint8_t> bytes);

// Decodes `text` into exactly out.size() bytes. Errors: empty text, text longer than `max_length`
// characters (checked first, so oversized input costs nothing), a character outside the alphabet,
// or a value that does not decode to exactly out.size() bytes. On error `out` is unspecified.
Status Base58DecodeExact(std::string_view text, std::span<std::uint8_t> out,
                         std::size_t max_length);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_BASE58_H_
