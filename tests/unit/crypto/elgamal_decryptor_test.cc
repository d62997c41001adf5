#include "core/crypto/elgamal_decryptor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "test_bytes.h"

namespace netgraph::crypto {
namespace {

using ::testing::HasSubstr;

class ElGamalDecryptorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    secret_ = std::make_unique<ElGamalSecretKey>(*ElGamalSecretKey::FromBytes(
        FromHex<32>("716d2431fa74fc1c48ffb9b9972b0be2f0b29ab755081f2ea35d3c74f442190e")));
    decryptor_ = std::make_unique<ElGamalDecryptor>(*secret_);
  }
  static void TearDownTestSuite() {
    decryptor_.reset();
    secret_.reset();
  }

  static ElGamalPublicKey PublicKey() { return ElGamalPublicKey::FromSecretKey(*secret_); }

  static std::unique_ptr<ElGamalSecretKey> secret_;
  static std::unique_ptr<ElGamalDecryptor> decryptor_;
};

std::unique_ptr<ElGamalSecretKey> ElGamalDecryptorTest::secret_;
std::unique_ptr<ElGamalDecryptor> ElGamalDecryptorTest::decryptor_;

TEST_F(ElGamalDecryptorTest, DecryptsTheZkSdkVector) {
  Result<ElGamalCiphertext> ciphertext = ElGamalCiphertext::Parse(
      "mAozNnpwHnyK5BEIdHLfyOEK/kZdeCWB8BCkvogiOlM25LcEXis0FO1wmYF6bUwRNfq9MUZ4hrbi+Jaf/gLQOw==");
  ASSERT_TRUE(ciphertext.ok());
  Result<std::uint64_t> amount = decryptor_->Decrypt(*ciphertext);
  ASSERT_TRUE(amount.ok()) << amount.status().message();
  EXPECT_EQ(*amount, 1234567u);
}

TEST_F(ElGamalDecryptorTest, AllZeroCiphertextIsZero) {
  Result<std::uint64_t> amount = decryptor_->Decrypt(ElGamalCiphertext());
  ASSERT_TRUE(amount.ok());
  EXPECT_EQ(*amount, 0u);
}

TEST_F(ElGamalDecryptorTest, RoundTripsTheEndsOfTheRange) {
  for (std::uint64_t m :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{65536}, kMaxDecryptableAmount}) {
    Result<std::uint64_t> amount = decryptor_->Decrypt(Encrypt(PublicKey(), m));
    ASSERT_TRUE(amount.ok()) << m << ": " << amount.status().message();
    EXPECT_EQ(*amount, m);
  }
}

TEST_F(ElGamalDecryptorTest, LargestAmountDecryptsWellUnderASecond) {
  ElGamalCiphertext ciphertext = Encrypt(PublicKey(), kMaxDecryptableAmount);
  auto start = std::chrono::steady_clock::now();
  ElGamalDecryptor decryptor(*secret_);  // includes building the table
  Result<std::uint64_t> amount = decryptor.Decrypt(ciphertext);
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(amount.ok());
  EXPECT_EQ(*amount, kMaxDecryptableAmount);
  std::printf("table + decrypt of 2^32-1: %.3f s\n", elapsed.count());
  EXPECT_LT(elapsed.count(), 1.0);
}

TEST_F(ElGamalDecryptorTest, AmountsFrom2To32AreOutOfRange) {
  Result<std::uint64_t> amount = decryptor_->Decrypt(Encrypt(PublicKey(), std::uint64_t{1} << 32));
  ASSERT_FALSE(amount.ok());
  EXPECT_THAT(amount.status().message(), HasSubstr("out of range"));
  EXPECT_FALSE(decryptor_->Decrypt(Encrypt(PublicKey(), ~std::uint64_t{0})).ok());
}

TEST_F(ElGamalDecryptorTest, DecryptsHomomorphicSums) {
  ElGamalCiphertext balance;
  std::uint64_t total = 0;
  for (std::uint64_t credit : {1500u, 250000u, 7u, 65536u}) {
    balance = balance + Encrypt(PublicKey(), credit);
    total += credit;
  }
  Result<std::uint64_t> amount = decryptor_->Decrypt(balance);
  ASSERT_TRUE(amount.ok());
  EXPECT_EQ(*amount, total);
}

TEST_F(ElGamalDecryptorTest, AnotherKeysCiphertextDoesNotDecrypt) {
  ElGamalPublicKey other = ElGamalPublicKey::FromSecretKey(ElGamalSecretKey::Generate());
  EXPECT_FALSE(decryptor_->Decrypt(Encrypt(other, 42)).ok());
}

}  // namespace
}  // namespace netgraph::crypto
