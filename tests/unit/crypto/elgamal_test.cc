#include "core/crypto/elgamal.h"

#include <gtest/gtest.h>

#include <string>

#include "core/crypto/base64.h"
#include "core/crypto/hex.h"
#include "test_bytes.h"

namespace netgraph::crypto {
namespace {

// Vectors E2/E3 of the notes, confirmed against @solana/zk-sdk (the Rust crate built for WASM).
constexpr std::string_view kSecretHex =
    "716d2431fa74fc1c48ffb9b9972b0be2f0b29ab755081f2ea35d3c74f442190e";
constexpr std::string_view kPublicBase64 = "fvxVKIUMUPwlUPiQ6ctG+4lSZdQ1taY5+0H/6u2w3zc=";
constexpr std::string_view kE3Ciphertext =
    "mAozNnpwHnyK5BEIdHLfyOEK/kZdeCWB8BCkvogiOlM25LcEXis0FO1wmYF6bUwRNfq9MUZ4hrbi+Jaf/gLQOw==";

ElGamalSecretKey E2Secret() { return *ElGamalSecretKey::FromBytes(FromHex<32>(kSecretHex)); }

TEST(ElGamalTest, PublicKeyIsInverseSecretTimesH) {
  ElGamalPublicKey key = ElGamalPublicKey::FromSecretKey(E2Secret());
  EXPECT_EQ(HexEncode(key.bytes()),
            "7efc5528850c50fc2550f890e9cb46fb895265d435b5a639fb41ffeaedb0df37");
  EXPECT_EQ(key.ToBase64(), kPublicBase64);
  EXPECT_EQ(E2Secret().scalar() * key.point(), PedersenH());
}

TEST(ElGamalTest, FixedOpeningCiphertextMatchesZkSdk) {
  Result<ElGamalPublicKey> key = ElGamalPublicKey::Parse(kPublicBase64);
  ASSERT_TRUE(key.ok()) << key.status().message();
  ElGamalCiphertext ciphertext =
      EncryptWithOpening(*key, 1234567, Scalar::FromU64(0x1107));  // bytes 07 11 00 ...
  EXPECT_EQ(ciphertext.ToBase64(), kE3Ciphertext);
  // Commitment first, then handle.
  EXPECT_EQ(ciphertext.commitment(), RistrettoPoint::MultiplyBase(Scalar::FromU64(1234567)) +
                                         Scalar::FromU64(0x1107) * PedersenH());
  EXPECT_EQ(ciphertext.handle(), Scalar::FromU64(0x1107) * key->point());
  Result<ElGamalCiphertext> parsed = ElGamalCiphertext::Parse(kE3Ciphertext);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, ciphertext);
}

TEST(ElGamalTest, ZeroCiphertextIsSixtyFourZeroBytes) {
  ElGamalCiphertext zero;
  EXPECT_EQ(zero.bytes(), Bytes64{});
  EXPECT_EQ(zero.ToBase64(), std::string(86, 'A') + "==");
  Result<ElGamalCiphertext> parsed = ElGamalCiphertext::Parse(zero.ToBase64());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, zero);
  // Enc(0) with opening 0 under any key.
  ElGamalPublicKey key = ElGamalPublicKey::FromSecretKey(ElGamalSecretKey::Generate());
  EXPECT_EQ(EncryptWithOpening(key, 0, Scalar()), zero);
}

TEST(ElGamalTest, SumsAreHomomorphic) {
  ElGamalPublicKey key = ElGamalPublicKey::FromSecretKey(E2Secret());
  Scalar r1 = Scalar::Random(), r2 = Scalar::Random();
  ElGamalCiphertext sum = EncryptWithOpening(key, 700, r1) + EncryptWithOpening(key, 45, r2);
  EXPECT_EQ(sum, EncryptWithOpening(key, 745, r1 + r2));
  // Adding to the all-zero balance changes nothing.
  ElGamalCiphertext amount = Encrypt(key, 99);
  EXPECT_EQ(ElGamalCiphertext() + amount, amount);
  // Token-2022's deposit (add_to_with_offset): C += a·G + H, D += P, i.e. adding Enc(a, r = 1).
  ElGamalCiphertext deposited(
      sum.commitment() + RistrettoPoint::MultiplyBase(Scalar::FromU64(5)) + PedersenH(),
      sum.handle() + key.point());
  EXPECT_EQ(deposited, sum + EncryptWithOpening(key, 5, Scalar::FromU64(1)));
  EXPECT_EQ(deposited, EncryptWithOpening(key, 750, r1 + r2 + Scalar::FromU64(1)));
}

TEST(ElGamalTest, FreshOpeningsGiveDifferentCiphertexts) {
  ElGamalPublicKey key = ElGamalPublicKey::FromSecretKey(E2Secret());
  EXPECT_NE(Encrypt(key, 10), Encrypt(key, 10));
}

// Vector E7: zk-sdk's zero_ciphertext.rs proof test data.
TEST(ElGamalTest, ZkSdkPointsDecode) {
  EXPECT_TRUE(ElGamalPublicKey::Parse("iKeujRa2kL82Az2fl7MXHYVMc0XJFoGZckD7LvPtSU8=").ok());
  EXPECT_TRUE(ElGamalCiphertext::Parse(
                  "crvDqbMD4OVe4mkuzqUJrhyblxTAu3vaUqMvfYuAHybADkpXli9m1zXHrvdpO1PfDQ6U/"
                  "RHxLgr3XUvDg2sLBA==")
                  .ok());
}

PublicKeyError ParseError(std::string_view text) {
  PublicKeyError error{};
  Result<ElGamalPublicKey> key = ElGamalPublicKey::Parse(text, &error);
  EXPECT_FALSE(key.ok()) << text;
  return error;
}

TEST(ElGamalTest, InvalidPublicKeysHaveDistinctErrors) {
  EXPECT_EQ(ParseError("not base64!"), PublicKeyError::kBadBase64);
  EXPECT_EQ(ParseError("fvxVKIUMUPwlUPiQ6ctG+4lSZdQ1taY5+0H/6u2w3zc"), PublicKeyError::kBadBase64);
  EXPECT_EQ(ParseError(""), PublicKeyError::kWrongLength);
  Bytes64 long_key{};
  long_key[0] = 1;
  EXPECT_EQ(ParseError(Base64Encode(std::span(long_key).first(31))), PublicKeyError::kWrongLength);
  EXPECT_EQ(ParseError(Base64Encode(std::span(long_key).first(33))), PublicKeyError::kWrongLength);
  EXPECT_EQ(ParseError(kE3Ciphertext), PublicKeyError::kWrongLength);
  EXPECT_EQ(ParseError("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="), PublicKeyError::kIdentity);
  // An odd (negative) field element, p (a non-canonical zero) and all ones are not points.
  Bytes32 odd{};
  odd[0] = 1;
  EXPECT_EQ(ParseError(Base64Encode(odd)), PublicKeyError::kNotAPoint);
  EXPECT_EQ(ParseError(Base64Encode(
                FromHex<32>("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))),
            PublicKeyError::kNotAPoint);
  Bytes32 all_ones;
  all_ones.fill(0xff);
  EXPECT_EQ(ParseError(Base64Encode(all_ones)), PublicKeyError::kNotAPoint);
}

TEST(ElGamalTest, PublicKeyErrorsAreDescribed) {
  Result<ElGamalPublicKey> identity =
      ElGamalPublicKey::Parse("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
  EXPECT_EQ(identity.status().message(), "ElGamal public key is the identity point");
  EXPECT_EQ(ElGamalPublicKey::Parse("!").status().message(),
            "ElGamal public key is not standard padded base64");
}

TEST(ElGamalTest, CiphertextsMustBeSixtyFourBytesOfValidPoints) {
  EXPECT_FALSE(ElGamalCiphertext::Parse(kPublicBase64).ok());
  EXPECT_FALSE(ElGamalCiphertext::Parse("*").ok());
  Bytes64 bad{};
  bad[32] = 1;  // handle is not a point
  EXPECT_FALSE(ElGamalCiphertext::FromBytes(bad).ok());
  EXPECT_FALSE(ElGamalCiphertext::Parse(Base64Encode(bad)).ok());
}

TEST(ElGamalTest, SecretKeysAreCanonicalNonZeroScalars) {
  EXPECT_EQ(E2Secret().ToBase64(), Base64Encode(FromHex<32>(kSecretHex)));
  Result<ElGamalSecretKey> parsed = ElGamalSecretKey::Parse(E2Secret().ToBase64());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->scalar(), E2Secret().scalar());
  EXPECT_FALSE(ElGamalSecretKey::FromBytes(Bytes32{}).ok());
  Bytes32 too_big;
  too_big.fill(0xff);
  EXPECT_FALSE(ElGamalSecretKey::FromBytes(too_big).ok());
  EXPECT_FALSE(ElGamalSecretKey::Parse(kE3Ciphertext).ok());
  EXPECT_FALSE(ElGamalSecretKey::Parse("abc").ok());
  EXPECT_FALSE(ElGamalSecretKey::Generate().scalar().IsZero());
}

}  // namespace
}  // namespace netgraph::crypto
