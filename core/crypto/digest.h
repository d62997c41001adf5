// SHA-256 (Solana addresses, receipt chaining) and SHA3-512 (the Pedersen generator H), from
// OpenSSL.
#ifndef NETGRAPH_CORE_CRYPTO_DIGEST_H_
#define NETGRAPH_CORE_CRYPTO_DIGEST_H_

#include <cstdint>
#include <span>

#include "core/crypto/bytes.h"

namespace netgraph::crypto {

// OpenSSL fails here only when it cannot allocate memory; like a failed operator new, that ends
// the process.
Bytes32 Sha256(std::span<const std::uint8_t> data);
Bytes64 Sha3_512(std::span<const std::uint8_t> data);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_DIGEST_H_
