// Decrypts twisted-ElGamal ciphertexts with the owner's secret key, as a Solana wallet does
// (zk-sdk's ElGamal::decrypt_u32): m·G = C - s·D, then m from a discrete log below 2^32. This is an
// operator tool (`netgraphctl confidential decrypt`); the service never holds users' secret keys.
#ifndef NETGRAPH_CORE_CRYPTO_ELGAMAL_DECRYPTOR_H_
#define NETGRAPH_CORE_CRYPTO_ELGAMAL_DECRYPTOR_H_

#include <cstdint>

#include "core/crypto/elgamal.h"
#include "core/crypto/internal/discrete_log.h"
#include "core/status.h"

namespace netgraph::crypto {

class ElGamalDecryptor {
 public:
  // Builds the discrete-log table (see internal/discrete_log.h).
  explicit ElGamalDecryptor(const ElGamalSecretKey& key);

  // The amount (at most kMaxDecryptableAmount) the ciphertext encrypts under this key. An error
  // saying "out of range" when there is none: the amount is 2^32 or more, or the ciphertext was
  // made for another key.
  Result<std::uint64_t> Decrypt(const ElGamalCiphertext& ciphertext) const;

 private:
  ElGamalSecretKey key_;
  DiscreteLog discrete_log_;
};

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_ELGAMAL_DECRYPTOR_H_
