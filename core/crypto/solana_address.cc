#include "core/crypto/solana_address.h"

#include <openssl/bn.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "core/crypto/base58.h"
#include "core/crypto/digest.h"

namespace netgraph::crypto {
namespace {

constexpr std::string_view kPdaMarker = "ProgramDerivedAddress";

// Only for the constant program ids below, which parse.
SolanaAddress ProgramId(std::string_view base58) { return *SolanaAddress::Parse(base58); }

struct BnContextDeleter {
  void operator()(BN_CTX* context) const { BN_CTX_free(context); }
};

void Check(int openssl_result) {
  if (openssl_result != 1) {
    std::fputs("netgraph: OpenSSL big-number arithmetic failed (out of memory)\n", stderr);
    std::abort();
  }
}

}  // namespace

Result<SolanaAddress> SolanaAddress::Parse(std::string_view base58) {
  Bytes32 bytes;
  Status status = Base58DecodeExact(base58, bytes, kMaxBase58AddressLength);
  if (!status.ok()) return status.WithContext("address");
  return SolanaAddress(bytes);
}

std::string SolanaAddress::ToBase58() const { return Base58Encode(bytes_); }

const SolanaAddress& AssociatedTokenProgramId() {
  static const SolanaAddress id = ProgramId("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
  return id;
}

const SolanaAddress& Token2022ProgramId() {
  static const SolanaAddress id = ProgramId("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
  return id;
}

const SolanaAddress& TokenProgramId() {
  static const SolanaAddress id = ProgramId("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
  return id;
}

bool IsOnCurve(const Bytes32& bytes) {
  // On the curve -x^2 + y^2 = 1 + d x^2 y^2, x^2 = u/v with u = y^2 - 1 and v = d y^2 + 1 (never
  // zero, since -1/d is not a square). A point exists exactly when u/v is a square: u = 0, or by
  // Euler's criterion (u v)^((p-1)/2) = 1 mod p = 2^255 - 19.
  std::unique_ptr<BN_CTX, BnContextDeleter> context(BN_CTX_new());
  if (!context) Check(0);
  BN_CTX* ctx = context.get();
  BN_CTX_start(ctx);
  BIGNUM* p = BN_CTX_get(ctx);
  BIGNUM* d = BN_CTX_get(ctx);
  BIGNUM* y = BN_CTX_get(ctx);
  BIGNUM* yy = BN_CTX_get(ctx);
  BIGNUM* u = BN_CTX_get(ctx);
  BIGNUM* v = BN_CTX_get(ctx);
  BIGNUM* exponent = BN_CTX_get(ctx);
  BIGNUM* one = BN_CTX_get(ctx);
  if (one == nullptr) Check(0);  // BN_CTX_get fails for good once it fails
  Check(BN_set_word(p, 0));
  Check(BN_set_bit(p, 255));
  Check(BN_sub_word(p, 19));
  Check(BN_set_word(one, 1));
  // d = -121665 / 121666 mod p.
  Check(BN_set_word(d, 121666));
  if (BN_mod_inverse(d, d, p, ctx) == nullptr) Check(0);
  Check(BN_mul_word(d, 121665));
  Check(BN_mod_sub(d, p, d, p, ctx));

  Bytes32 y_bytes = bytes;
  y_bytes[31] &= 0x7f;
  if (BN_lebin2bn(y_bytes.data(), static_cast<int>(y_bytes.size()), y) == nullptr) Check(0);
  Check(BN_mod_sqr(yy, y, p, ctx));
  Check(BN_mod_sub(u, yy, one, p, ctx));
  Check(BN_mod_mul(v, d, yy, p, ctx));
  Check(BN_mod_add(v, v, one, p, ctx));
  bool on_curve = BN_is_zero(u);
  if (!on_curve) {
    Check(BN_mod_mul(u, u, v, p, ctx));
    Check(BN_rshift1(exponent, p));  // (p - 1) / 2, as p is odd
    Check(BN_mod_exp(u, u, exponent, p, ctx));
    on_curve = BN_is_one(u);
  }
  BN_CTX_end(ctx);
  return on_curve;
}

Result<SolanaAddress> CreateProgramAddress(const std::vector<Seed>& seeds,
                                           const SolanaAddress& program_id) {
  if (seeds.size() > kMaxSeeds) return Status::InvalidArgument("more than 16 seeds");
  std::vector<std::uint8_t> preimage;
  for (Seed seed : seeds) {
    if (seed.size() > kMaxSeedLength)
      return Status::InvalidArgument("a seed is longer than 32 bytes");
    preimage.insert(preimage.end(), seed.begin(), seed.end());
  }
  preimage.insert(preimage.end(), program_id.bytes().begin(), program_id.bytes().end());
  preimage.insert(preimage.end(), kPdaMarker.begin(), kPdaMarker.end());
  Bytes32 hash = Sha256(preimage);
  if (IsOnCurve(hash)) return Status::InvalidArgument("seeds give an address on the curve");
  return SolanaAddress(hash);
}

Result<ProgramAddress> FindProgramAddress(const std::vector<Seed>& seeds,
                                          const SolanaAddress& program_id) {
  if (seeds.size() >= kMaxSeeds) return Status::InvalidArgument("no room for the bump seed");
  for (Seed seed : seeds) {
    if (seed.size() > kMaxSeedLength)
      return Status::InvalidArgument("a seed is longer than 32 bytes");
  }
  std::vector<Seed> with_bump = seeds;
  std::uint8_t bump = 0;
  with_bump.push_back(Seed(&bump, 1));
  for (int candidate = 255; candidate >= 1; --candidate) {
    bump = static_cast<std::uint8_t>(candidate);
    Result<SolanaAddress> address = CreateProgramAddress(with_bump, program_id);
    if (address.ok()) return ProgramAddress{*address, bump};
  }
  return Status::InvalidArgument("no bump seed gives an off-curve address");
}

Result<ProgramAddress> AssociatedTokenAddress(const SolanaAddress& wallet,
                                              const SolanaAddress& mint,
                                              const SolanaAddress& token_program) {
  return FindProgramAddress({wallet.bytes(), token_program.bytes(), mint.bytes()},
                            AssociatedTokenProgramId());
}

}  // namespace netgraph::crypto
