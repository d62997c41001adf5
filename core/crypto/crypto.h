// netgraph's crypto folder: confidential balances and signed receipts in Solana Token-2022's own
// encodings, so that real Solana client libraries can read what the service hands out.
//
// Contract of the folder:
//  - No exceptions; failures are Status / Result values. Inputs from users are parsed strictly
//    (exact lengths, canonical encodings) before any other code sees them.
//  - Secrets (ElGamal secret keys, openings, Ed25519 seeds) are wiped when dropped. The service
//    itself holds only the treasury key; users' ElGamal secret keys appear only in operator tools.
//  - libsodium supplies ristretto255 and base64; OpenSSL 3 supplies SHA-256, SHA3-512, Ed25519 and
//    the big-number arithmetic of Solana's on-curve test. Every constant and test vector is in
//    the project's notes (confidential-crypto.md) and in tests/unit/crypto.
//
// Pieces, each with its own header:
//   bytes.h              Bytes32 / Bytes64
//   hex.h, base58.h, base64.h   text encodings (base58: addresses, signatures; base64: ElGamal)
//   digest.h             SHA-256, SHA3-512
//   ristretto.h          ristretto255 points and scalars, generators G and H
//   elgamal.h            twisted ElGamal keys, ciphertexts, encryption, homomorphic sums
//   elgamal_decryptor.h  decryption with a secret key (operator CLI)
//   internal/discrete_log.h, internal/field25519.h   the search behind decryption (private)
//   ed25519.h            Ed25519 keypairs, signing, verification, base58 signatures
//   solana_keypair.h     Solana keypair JSON files (the treasury key)
//   solana_address.h     addresses, PDAs, associated token accounts, program ids
//   offchain_message.h   Solana off-chain message v0 envelope, sign / verify
//   receipt.h            canonical, chained, signed redemption receipts
#ifndef NETGRAPH_CORE_CRYPTO_CRYPTO_H_
#define NETGRAPH_CORE_CRYPTO_CRYPTO_H_

#include "core/crypto/base58.h"
#include "core/crypto/base64.h"
#include "core/crypto/bytes.h"
#include "core/crypto/digest.h"
#include "core/crypto/ed25519.h"
#include "core/crypto/elgamal.h"
#include "core/crypto/elgamal_decryptor.h"
#include "core/crypto/hex.h"
#include "core/crypto/offchain_message.h"
#include "core/crypto/receipt.h"
#include "core/crypto/ristretto.h"
#include "core/crypto/solana_address.h"
#include "core/crypto/solana_keypair.h"

#endif  // NETGRAPH_CORE_CRYPTO_CRYPTO_H_
