// Solana addresses: 32-byte account keys written in base58, program-derived addresses (PDAs) and
// associated token accounts, computed exactly as Solana's SDK computes them off chain.
#ifndef NETGRAPH_CORE_CRYPTO_SOLANA_ADDRESS_H_
#define NETGRAPH_CORE_CRYPTO_SOLANA_ADDRESS_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/crypto/bytes.h"
#include "core/status.h"

namespace netgraph::crypto {

class SolanaAddress {
 public:
  explicit SolanaAddress(const Bytes32& bytes) : bytes_(bytes) {}
  // Base58 of at most 44 characters that decodes to exactly 32 bytes (Solana's Pubkey::from_str).
  static Result<SolanaAddress> Parse(std::string_view base58);

  const Bytes32& bytes() const { return bytes_; }
  std::string ToBase58() const;
  friend bool operator==(const SolanaAddress&, const SolanaAddress&) = default;

 private:
  Bytes32 bytes_;
};

// Program ids (declare_id! in each program's source).
const SolanaAddress& AssociatedTokenProgramId();  // ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL
const SolanaAddress& Token2022ProgramId();        // TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb
const SolanaAddress& TokenProgramId();            // TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA

// Whether the bytes decompress to an edwards25519 point under curve25519-dalek's rules, which the
// validator uses: y is the integer with bit 255 cleared, taken modulo p even when not canonical;
// the sign bit is ignored; there is no subgroup or small-order check. A PDA must be off the curve.
// (libsodium's crypto_core_ed25519_is_valid_point is stricter and picks wrong bumps.)
bool IsOnCurve(const Bytes32& bytes);

using Seed = std::span<const std::uint8_t>;
inline constexpr std::size_t kMaxSeeds = 16;
inline constexpr std::size_t kMaxSeedLength = 32;

// SHA-256(seed_0 ‖ … ‖ seed_n ‖ program_id ‖ "ProgramDerivedAddress"). Errors: more than 16 seeds
// or a seed over 32 bytes; a hash that lies on the curve (Solana's InvalidSeeds).
Result<SolanaAddress> CreateProgramAddress(const std::vector<Seed>& seeds,
                                           const SolanaAddress& program_id);

struct ProgramAddress {
  SolanaAddress address;
  std::uint8_t bump;
};

// The first off-curve CreateProgramAddress(seeds ‖ [bump]) for bump = 255, 254, …, 1 (bump 0 is
// never tried, as in Solana). Errors when the seeds leave no room for the bump seed, or (with
// probability about 2^-255) when no bump works.
Result<ProgramAddress> FindProgramAddress(const std::vector<Seed>& seeds,
                                          const SolanaAddress& program_id);

// The associated token account of `wallet` for `mint` under `token_program` (Token-2022 for this
// service's confidential mint): FindProgramAddress([wallet, token_program, mint], ATA program).
// Off-curve (PDA) wallets are allowed, as in the on-chain program.
Result<ProgramAddress> AssociatedTokenAddress(const SolanaAddress& wallet,
                                              const SolanaAddress& mint,
                                              const SolanaAddress& token_program);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_SOLANA_ADDRESS_H_
