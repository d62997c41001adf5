// Fixed-size byte strings used across the crypto folder: 32 bytes for keys, points, scalars,
// addresses and SHA-256 digests; 64 bytes for signatures, ciphertexts and wide hashes.
#ifndef NETGRAPH_CORE_CRYPTO_BYTES_H_
#define NETGRAPH_CORE_CRYPTO_BYTES_H_

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace netgraph::crypto {

using Bytes32 = std::array<std::uint8_t, 32>;
using Bytes64 = std::array<std::uint8_t, 64>;

// The bytes of a text, for hashing and signing it.
inline std::span<const std::uint8_t> AsBytes(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_BYTES_H_
