#include "core/crypto/elgamal_decryptor.h"

namespace netgraph::crypto {

ElGamalDecryptor::ElGamalDecryptor(const ElGamalSecretKey& key) : key_(key) {}

Result<std::uint64_t> ElGamalDecryptor::Decrypt(const ElGamalCiphertext& ciphertext) const {
  RistrettoPoint amount_point = ciphertext.commitment() - key_.scalar() * ciphertext.handle();
  Result<std::uint32_t> amount = discrete_log_.Solve(amount_point);
  if (!amount.ok()) {
    return Status::InvalidArgument(
        "ciphertext does not decrypt to an amount below 2^32 under this key (out of range)");
  }
  return std::uint64_t{*amount};
}

}  // namespace netgraph::crypto
