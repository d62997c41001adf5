#include "core/crypto/solana_address.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sodium.h>

#include <random>
#include <string>
#include <vector>

#include "core/crypto/bytes.h"
#include "core/crypto/digest.h"
#include "test_bytes.h"

namespace netgraph::crypto {
namespace {

using ::testing::HasSubstr;

SolanaAddress Address(std::string_view base58) {
  Result<SolanaAddress> address = SolanaAddress::Parse(base58);
  EXPECT_TRUE(address.ok()) << base58 << ": " << address.status().message();
  return address.ok() ? *address : SolanaAddress(Bytes32{});
}

TEST(SolanaAddressTest, ParsesAndPrintsBase58) {
  SolanaAddress wallet = Address("3h1zGmCwsRJnVk5BuRNMLsPaQu1y2aqXqXDWYCgrp5UG");
  EXPECT_EQ(wallet.ToBase58(), "3h1zGmCwsRJnVk5BuRNMLsPaQu1y2aqXqXDWYCgrp5UG");
  EXPECT_EQ(Address("11111111111111111111111111111111").bytes(), Bytes32{});
  EXPECT_FALSE(SolanaAddress::Parse("").ok());
  EXPECT_FALSE(SolanaAddress::Parse("3h1zGmCwsRJnVk5BuRNMLsPaQu1y2aqXqXDWYCgrp5U0").ok());
  EXPECT_FALSE(SolanaAddress::Parse("1111111111111111111111111111111").ok());  // 31 bytes
  EXPECT_THAT(SolanaAddress::Parse(std::string(45, '1')).status().message(),
              HasSubstr("longer than 44"));
}

TEST(SolanaAddressTest, ProgramIds) {
  EXPECT_EQ(AssociatedTokenProgramId().ToBase58(), "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
  EXPECT_EQ(Token2022ProgramId().ToBase58(), "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
  EXPECT_EQ(TokenProgramId().ToBase58(), "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
}

// solana-address's own create_program_address tests.
TEST(SolanaAddressTest, CreateProgramAddressVectors) {
  SolanaAddress program = Address("BPFLoaderUpgradeab1e11111111111111111111111");
  const std::uint8_t one[] = {1}, zero[] = {0};
  SolanaAddress seed_key = Address("SeedPubey1111111111111111111111111111111111");
  struct Case {
    std::vector<Seed> seeds;
    std::string_view expected;
  };
  const Case cases[] = {
      {{AsBytes(""), one}, "BwqrghZA2htAcqq8dzP1WDAhTXYTYWj7CHxF5j7TDBAe"},
      {{AsBytes("\xe2\x98\x89"), zero}, "13yWmRpaTR4r5nAktwLqMpRNr28tnVUZw26rTvPSSB19"},
      {{AsBytes("Talking"), AsBytes("Squirrels")}, "2fnQrngrQT4SeLcdToJAD96phoEjNL2man2kfRLCASVk"},
      {{seed_key.bytes(), one}, "976ymqVnfE32QFe6NfGDctSvVa36LWnvYxhU6G2232YL"},
  };
  for (const Case& c : cases) {
    Result<SolanaAddress> address = CreateProgramAddress(c.seeds, program);
    ASSERT_TRUE(address.ok()) << c.expected << ": " << address.status().message();
    EXPECT_EQ(address->ToBase58(), c.expected);
  }
}

TEST(SolanaAddressTest, SeedLimits) {
  SolanaAddress program = Address("BPFLoaderUpgradeab1e11111111111111111111111");
  const std::uint8_t long_seed[33] = {};
  EXPECT_THAT(CreateProgramAddress({long_seed}, program).status().message(),
              HasSubstr("longer than 32"));
  EXPECT_TRUE(FindProgramAddress({Seed(long_seed, 32)}, program).ok());
  std::vector<Seed> seventeen(17, AsBytes("x"));
  EXPECT_THAT(CreateProgramAddress(seventeen, program).status().message(),
              HasSubstr("more than 16"));
  std::vector<Seed> sixteen(16, AsBytes("x"));
  EXPECT_THAT(FindProgramAddress(sixteen, program).status().message(), HasSubstr("bump"));
  std::vector<Seed> fifteen(15, AsBytes("x"));
  EXPECT_TRUE(FindProgramAddress(fifteen, program).ok());
}

struct AtaCase {
  std::string_view wallet, mint;
  const SolanaAddress& (*token_program)();
  std::string_view ata;
  int bump;
};

// The notes' table (section 3.6): upstream vectors and values confirmed with @solana/spl-token.
// The rows with mint 8N6g…u38s are the off-curve regression tests: a stricter on-curve test (such
// as libsodium's crypto_core_ed25519_is_valid_point) picks the wrong bump for three of them.
const AtaCase kAtaCases[] = {
    {"3h1zGmCwsRJnVk5BuRNMLsPaQu1y2aqXqXDWYCgrp5UG", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
     TokenProgramId, "3uetDDizgTtadDHZzyy9BqxrjQcozMEkxzbKhfZF4tG3", 255},
    {"3h1zGmCwsRJnVk5BuRNMLsPaQu1y2aqXqXDWYCgrp5UG", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
     Token2022ProgramId, "4WCfDRZGuArEsp3BRU3H7mLu14r8gdna63E2A7SSuLne", 249},
    {"931gKnvtYWR12hueG8Zb1yDigAntDghosriFUoK1Fr8P", "8N6gdBxJaZUG9cBnSSaHDsx7vMeQ4VR1LmCmk9SCu38s",
     TokenProgramId, "9yjhbYnW5p3SckRgCrbCw4t95PWq6YT6qwzLjg749oYa", 253},
    {"931gKnvtYWR12hueG8Zb1yDigAntDghosriFUoK1Fr8P", "8N6gdBxJaZUG9cBnSSaHDsx7vMeQ4VR1LmCmk9SCu38s",
     Token2022ProgramId, "9JnT4Cxrai2B15zhMXuYUtB9gMbaqPDefTB45SbiTiCk", 255},
    {"1117mWrzzrZr312ebPDHu8tbfMwFNvCvMbr6WepCNG", "8N6gdBxJaZUG9cBnSSaHDsx7vMeQ4VR1LmCmk9SCu38s",
     TokenProgramId, "3kP4RCoX8u1PhyiUkuNpFfbUmFF32ZC9uscL7H84Xs2u", 255},
    {"111FJo4zLAGU9nzTWa6EnbV4VAmtG4FR8kcokrtZYr", "8N6gdBxJaZUG9cBnSSaHDsx7vMeQ4VR1LmCmk9SCu38s",
     TokenProgramId, "Ca4eYU7REoDbzcM2qcBwL4NiqSiNqAMCcr6rHhoNrLBQ", 254},
    {"3zPynWFGj3nyJBtHhCy8UEJoGvbn1TmgHca2afHTSByQ", "8N6gdBxJaZUG9cBnSSaHDsx7vMeQ4VR1LmCmk9SCu38s",
     TokenProgramId, "7dZ7o2dQQLQwYwcVvi6zwWzbGJr8BJaqVhPVqfKwo7ZP", 253},
};

TEST(SolanaAddressTest, AssociatedTokenAccountVectors) {
  for (const AtaCase& c : kAtaCases) {
    Result<ProgramAddress> ata =
        AssociatedTokenAddress(Address(c.wallet), Address(c.mint), c.token_program());
    ASSERT_TRUE(ata.ok()) << c.wallet << ": " << ata.status().message();
    EXPECT_EQ(ata->address.ToBase58(), c.ata) << c.wallet << " " << c.token_program().ToBase58();
    EXPECT_EQ(ata->bump, c.bump) << c.wallet << " " << c.token_program().ToBase58();
  }
}

// The hash FindProgramAddress tries for one bump of a classic-Token ATA.
Bytes32 AtaHash(std::string_view wallet, std::string_view mint, std::uint8_t bump) {
  std::vector<std::uint8_t> preimage;
  auto append = [&preimage](std::span<const std::uint8_t> bytes) {
    preimage.insert(preimage.end(), bytes.begin(), bytes.end());
  };
  append(Address(wallet).bytes());
  append(TokenProgramId().bytes());
  append(Address(mint).bytes());
  preimage.push_back(bump);
  append(AssociatedTokenProgramId().bytes());
  append(AsBytes("ProgramDerivedAddress"));
  return Sha256(preimage);
}

// The skipped bumps really are on the curve, by dalek's rules, though libsodium's strict
// validity check says otherwise for some of them.
TEST(SolanaAddressTest, SkippedBumpsAreOnTheCurve) {
  const std::string_view mint = "8N6gdBxJaZUG9cBnSSaHDsx7vMeQ4VR1LmCmk9SCu38s";
  Bytes32 bump_254 = AtaHash("931gKnvtYWR12hueG8Zb1yDigAntDghosriFUoK1Fr8P", mint, 254);
  EXPECT_EQ(SolanaAddress(bump_254).ToBase58(), "2XughgGgvRsf8VJiteF7ZEYF2jZbCTcTAFoEfrCfUXs7");
  EXPECT_TRUE(IsOnCurve(bump_254));
  EXPECT_TRUE(IsOnCurve(AtaHash("931gKnvtYWR12hueG8Zb1yDigAntDghosriFUoK1Fr8P", mint, 255)));
  EXPECT_TRUE(IsOnCurve(AtaHash("111FJo4zLAGU9nzTWa6EnbV4VAmtG4FR8kcokrtZYr", mint, 255)));
  EXPECT_FALSE(IsOnCurve(AtaHash("111FJo4zLAGU9nzTWa6EnbV4VAmtG4FR8kcokrtZYr", mint, 253)));
  EXPECT_FALSE(IsOnCurve(AtaHash("1117mWrzzrZr312ebPDHu8tbfMwFNvCvMbr6WepCNG", mint, 254)));
  for (int bump : {255, 254, 252, 251}) {
    EXPECT_TRUE(IsOnCurve(AtaHash("3zPynWFGj3nyJBtHhCy8UEJoGvbn1TmgHca2afHTSByQ", mint,
                                  static_cast<std::uint8_t>(bump))))
        << bump;
  }
  EXPECT_FALSE(IsOnCurve(AtaHash("3zPynWFGj3nyJBtHhCy8UEJoGvbn1TmgHca2afHTSByQ", mint, 250)));
}

TEST(SolanaAddressTest, OnCurveEdgeCases) {
  // y = 1 (u = 0: the identity) and y = -1, with and without the sign bit.
  Bytes32 one{};
  one[0] = 1;
  EXPECT_TRUE(IsOnCurve(one));
  one[31] = 0x80;
  EXPECT_TRUE(IsOnCurve(one));
  // y = p + 1, a non-canonical encoding of 1: accepted like dalek does.
  EXPECT_TRUE(
      IsOnCurve(FromHex<32>("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")));
  // The Ed25519 basepoint's encoding, and a wallet address.
  EXPECT_TRUE(
      IsOnCurve(FromHex<32>("5866666666666666666666666666666666666666666666666666666666666666")));
  EXPECT_TRUE(IsOnCurve(Address("3h1zGmCwsRJnVk5BuRNMLsPaQu1y2aqXqXDWYCgrp5UG").bytes()));
  // y = 2 and y = 7 are not the y of a curve point; y = 3 is.
  Bytes32 small{};
  small[0] = 2;
  EXPECT_FALSE(IsOnCurve(small));
  small[0] = 7;
  EXPECT_FALSE(IsOnCurve(small));
  small[0] = 3;
  EXPECT_TRUE(IsOnCurve(small));
}

// libsodium's crypto_core_ed25519_add decodes its inputs with the same rules as dalek (unlike its
// is_valid_point), so it serves as an independent check on random inputs.
TEST(SolanaAddressTest, OnCurveAgreesWithLibsodiumDecoding) {
  ASSERT_GE(sodium_init(), 0);
  Bytes32 identity{};
  identity[0] = 1;
  std::mt19937 random(5);
  int on_curve = 0;
  for (int i = 0; i < 2000; ++i) {
    Bytes32 bytes;
    for (auto& byte : bytes) byte = static_cast<std::uint8_t>(random());
    Bytes32 sum;
    bool decodes = crypto_core_ed25519_add(sum.data(), bytes.data(), identity.data()) == 0;
    EXPECT_EQ(IsOnCurve(bytes), decodes) << i;
    on_curve += decodes;
  }
  EXPECT_GT(on_curve, 800);
  EXPECT_LT(on_curve, 1200);
}

}  // namespace
}  // namespace netgraph::crypto
