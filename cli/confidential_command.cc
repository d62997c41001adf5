// netgraphctl confidential ...: what a holder of a confidential balance does with the secret key
// the service never sees: make a key pair, decrypt a balance or an amount.
#include <iostream>

#include "cli/command.h"
#include "core/crypto/elgamal.h"
#include "core/crypto/elgamal_decryptor.h"

namespace netgraph::cli {
namespace {

int Decrypt(Arguments& arguments) {
  std::optional<std::string> secret = arguments.Option("secret-key");
  std::optional<std::string> ciphertext = arguments.Option("ciphertext");
  if (Status s = arguments.Finish(); !s.ok() || !secret || !ciphertext) {
    std::cerr << "netgraphctl confidential decrypt: "
              << (s.ok() ? "--secret-key K and --ciphertext C are required" : s.message()) << "\n";
    return kExitUsage;
  }
  Result<crypto::ElGamalSecretKey> key = crypto::ElGamalSecretKey::Parse(*secret);
  if (!key.ok()) {
    std::cerr << "netgraphctl confidential decrypt: secret key: " << key.status().message() << "\n";
    return kExitUsage;
  }
  Result<crypto::ElGamalCiphertext> parsed = crypto::ElGamalCiphertext::Parse(*ciphertext);
  if (!parsed.ok()) {
    std::cerr << "netgraphctl confidential decrypt: ciphertext: " << parsed.status().message()
              << "\n";
    return kExitUsage;
  }
  Result<std::uint64_t> amount = crypto::ElGamalDecryptor(*key).Decrypt(*parsed);
  if (!amount.ok()) {
    std::cerr << "netgraphctl confidential decrypt: " << amount.status().message() << "\n";
    return kExitFailed;
  }
  std::cout << *amount << "\n";
  return kExitOk;
}

int Keygen(Arguments& arguments) {
  if (Status s = arguments.Finish(); !s.ok()) {
    std::cerr << "netgraphctl confidential keygen: " << s.message() << "\n";
    return kExitUsage;
  }
  crypto::ElGamalSecretKey secret = crypto::ElGamalSecretKey::Generate();
  std::cout << "secret_key=" << secret.ToBase64() << "\n"
            << "public_key=" << crypto::ElGamalPublicKey::FromSecretKey(secret).ToBase64() << "\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> ConfidentialCommands() {
  return {
      {"confidential decrypt",
       "--secret-key K --ciphertext C",
       "decrypt a twisted-ElGamal ciphertext (base64) with a secret key (base64): prints base "
       "units",
       Decrypt,
       {{"--secret-key K", "the secret key (base64), as confidential keygen prints it"},
        {"--ciphertext C", "an encryptedBalance or encryptedAmount (base64)"}},
       RunAs::kAnyone},
      {"confidential keygen",
       "",
       "make a twisted-ElGamal key pair (base64): the public key is what redeemVoucher takes",
       Keygen,
       {},
       RunAs::kAnyone},
  };
}

}  // namespace netgraph::cli
