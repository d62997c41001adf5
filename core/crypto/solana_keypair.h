// Solana's keypair file, as `solana-keygen new` writes it: a JSON array of 64 integers 0..255, the
// 32-byte secret seed followed by the 32-byte public key. The treasury key that signs receipts is
// kept in this format; a development stack generates its own.
#ifndef NETGRAPH_CORE_CRYPTO_SOLANA_KEYPAIR_H_
#define NETGRAPH_CORE_CRYPTO_SOLANA_KEYPAIR_H_

#include <filesystem>
#include <string>
#include <string_view>

#include "core/crypto/ed25519.h"
#include "core/status.h"

namespace netgraph::crypto {

// Compact JSON, e.g. "[12,250,...]". The text holds the secret seed.
std::string ToSolanaKeypairJson(const Ed25519Keypair& keypair);

// Errors unless `json` is an array of exactly 64 integers 0..255 whose second half is the public
// key of the first half.
Result<Ed25519Keypair> ParseSolanaKeypairJson(std::string_view json);

Result<Ed25519Keypair> ReadSolanaKeypairFile(const std::filesystem::path& path);

// Creates `path` with mode 0600; an existing file is an error, never overwritten.
Status WriteSolanaKeypairFile(const std::filesystem::path& path, const Ed25519Keypair& keypair);

// For development stacks: reads `path` when it exists, otherwise generates a fresh keypair and
// writes it there first.
Result<Ed25519Keypair> ReadOrCreateSolanaKeypairFile(const std::filesystem::path& path);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_SOLANA_KEYPAIR_H_
