// Discrete logarithms to the base G in [0, 2^32): the last step of twisted-ElGamal decryption, and
// the range Solana's zk-sdk decrypts (DiscreteLog::decode_u32). Any ciphertext a standard Solana
// client is expected to read holds an amount in this range.
//
// Baby-step giant-step with a 2^16 / 2^16 split: a table of x_hi·2^16·G for x_hi < 2^16, then up to
// 2^16 steps target - x_lo·G. Points are compared by a key computed with batched inversions (see
// discrete_log.cc), so building the table and a full search each take tens of milliseconds.
#ifndef NETGRAPH_CORE_CRYPTO_INTERNAL_DISCRETE_LOG_H_
#define NETGRAPH_CORE_CRYPTO_INTERNAL_DISCRETE_LOG_H_

#include <cstdint>
#include <vector>

#include "core/crypto/bytes.h"
#include "core/crypto/ristretto.h"
#include "core/status.h"

namespace netgraph::crypto {

class DiscreteLog {
 public:
  // Builds the table (2^16 entries, about 2 MB). Immutable afterwards, so one instance can serve
  // several threads.
  DiscreteLog();

  // The m < 2^32 with m·G == target, or an error when the logarithm is not below 2^32.
  Result<std::uint32_t> Solve(const RistrettoPoint& target) const;

 private:
  struct Entry {
    Bytes32 key;
    std::uint16_t high;  // x_hi
  };
  std::vector<Entry> table_;  // sorted by key
};

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_INTERNAL_DISCRETE_LOG_H_
