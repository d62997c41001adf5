#include "core/crypto/receipt.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sodium.h>

#include <string>
#include <vector>

#include "core/crypto/digest.h"
#include "core/crypto/hex.h"
#include "core/crypto/offchain_message.h"
#include "test_bytes.h"

namespace netgraph::crypto {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kCiphertext =
    "mAozNnpwHnyK5BEIdHLfyOEK/kZdeCWB8BCkvogiOlM25LcEXis0FO1wmYF6bUwRNfq9MUZ4hrbi+Jaf/gLQOw==";

// The canonical text of SampleReceipt(), written out by hand.
const std::string kSampleText =
    "netgraph-receipt-v1"
    " redemption_id=7f3c2a9e-1b4d-4c8e-9a2f-5d6e7f8a9b0c"
    " wallet=3h1zGmCwsRJnVk5BuRNMLsPaQu1y2aqXqXDWYCgrp5UG"
    " mint=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
    " token_account=4WCfDRZGuArEsp3BRU3H7mLu14r8gdna63E2A7SSuLne"
    " confidential_public_key=fvxVKIUMUPwlUPiQ6ctG+4lSZdQ1taY5+0H/6u2w3zc="
    " amount=1234567"
    " decimals=2"
    " encrypted_amount=" +
    std::string(kCiphertext) + " encrypted_balance=" + std::string(kCiphertext) +
    " time=2026-03-01T12:34:56Z"
    " previous_receipt_hash=0000000000000000000000000000000000000000000000000000000000000000";

Receipt SampleReceipt() {
  return Receipt{
      .redemption_id = "7f3c2a9e-1b4d-4c8e-9a2f-5d6e7f8a9b0c",
      .wallet = *SolanaAddress::Parse("3h1zGmCwsRJnVk5BuRNMLsPaQu1y2aqXqXDWYCgrp5UG"),
      .mint = *SolanaAddress::Parse("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"),
      .token_account = *SolanaAddress::Parse("4WCfDRZGuArEsp3BRU3H7mLu14r8gdna63E2A7SSuLne"),
      .confidential_public_key =
          *ElGamalPublicKey::Parse("fvxVKIUMUPwlUPiQ6ctG+4lSZdQ1taY5+0H/6u2w3zc="),
      .amount = 1234567,
      .decimals = 2,
      .encrypted_amount = *ElGamalCiphertext::Parse(kCiphertext),
      .encrypted_balance = ElGamalCiphertext() + *ElGamalCiphertext::Parse(kCiphertext),
      .time = "2026-03-01T12:34:56Z",
      .previous_receipt_hash = kNoPreviousReceipt,
  };
}

Ed25519Keypair Treasury() {
  return *Ed25519Keypair::FromSeed(
      FromHex<32>("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"));
}

// What a verifier in another language does: rebuild the off-chain message envelope by hand.
std::vector<std::uint8_t> Envelope(std::string_view text) {
  std::vector<std::uint8_t> bytes = {0xff};
  for (char c : std::string_view("solana offchain")) bytes.push_back(static_cast<std::uint8_t>(c));
  bytes.insert(bytes.end(), {0x00, 0x00, static_cast<std::uint8_t>(text.size() & 0xff),
                             static_cast<std::uint8_t>(text.size() >> 8)});
  bytes.insert(bytes.end(), text.begin(), text.end());
  return bytes;
}

TEST(ReceiptTest, CanonicalTextIsTheDocumentedLine) {
  Result<std::string> text = ReceiptText(SampleReceipt());
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(*text, kSampleText);
  EXPECT_EQ(text->find('\n'), std::string::npos);
  EXPECT_EQ(*ChooseOffchainMessageFormat(*text), OffchainMessageFormat::kRestrictedAscii);
}

TEST(ReceiptTest, ParsesItsOwnText) {
  Result<Receipt> parsed = ParseReceiptText(kSampleText);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  Receipt sample = SampleReceipt();
  EXPECT_EQ(parsed->redemption_id, sample.redemption_id);
  EXPECT_EQ(parsed->wallet, sample.wallet);
  EXPECT_EQ(parsed->mint, sample.mint);
  EXPECT_EQ(parsed->token_account, sample.token_account);
  EXPECT_EQ(parsed->confidential_public_key, sample.confidential_public_key);
  EXPECT_EQ(parsed->amount, sample.amount);
  EXPECT_EQ(parsed->decimals, sample.decimals);
  EXPECT_EQ(parsed->encrypted_amount, sample.encrypted_amount);
  EXPECT_EQ(parsed->encrypted_balance, sample.encrypted_balance);
  EXPECT_EQ(parsed->time, sample.time);
  EXPECT_EQ(parsed->previous_receipt_hash, sample.previous_receipt_hash);
}

TEST(ReceiptTest, SignVerifyRoundTrip) {
  Result<SignedReceipt> signed_receipt = SignReceipt(SampleReceipt(), Treasury());
  ASSERT_TRUE(signed_receipt.ok()) << signed_receipt.status().message();
  EXPECT_EQ(signed_receipt->text, kSampleText);
  Status verified =
      VerifyReceipt(signed_receipt->text, signed_receipt->signature, Treasury().public_key());
  EXPECT_TRUE(verified.ok()) << verified.message();

  // Independently: libsodium over the hand-built envelope, and the hash over the same bytes.
  std::vector<std::uint8_t> envelope = Envelope(kSampleText);
  ASSERT_GE(sodium_init(), 0);
  EXPECT_EQ(crypto_sign_verify_detached(signed_receipt->signature.data(), envelope.data(),
                                        envelope.size(), Treasury().public_key().data()),
            0);
  EXPECT_EQ(signed_receipt->hash, Sha256(envelope));
  EXPECT_EQ(*ReceiptHash(kSampleText), Sha256(envelope));
}

TEST(ReceiptTest, TamperedBytesFailVerification) {
  SignedReceipt signed_receipt = *SignReceipt(SampleReceipt(), Treasury());
  // Change the amount 1234567 -> 1234568: still a well-formed receipt, but not the signed one.
  std::string tampered = signed_receipt.text;
  std::size_t amount = tampered.find("amount=1234567") + std::string("amount=123456").size();
  tampered[amount] = '8';
  ASSERT_TRUE(ParseReceiptText(tampered).ok());
  EXPECT_THAT(VerifyReceipt(tampered, signed_receipt.signature, Treasury().public_key()).message(),
              HasSubstr("signature"));
  // Every single-byte change of the signature fails.
  for (std::size_t i = 0; i < signed_receipt.signature.size(); i += 7) {
    Bytes64 signature = signed_receipt.signature;
    signature[i] ^= 0x20;
    EXPECT_FALSE(VerifyReceipt(signed_receipt.text, signature, Treasury().public_key()).ok()) << i;
  }
  Result<Ed25519Keypair> other = Ed25519Keypair::Generate();
  EXPECT_FALSE(
      VerifyReceipt(signed_receipt.text, signed_receipt.signature, other->public_key()).ok());
}

TEST(ReceiptTest, ReceiptsChainByHash) {
  SignedReceipt first = *SignReceipt(SampleReceipt(), Treasury());
  Receipt next = SampleReceipt();
  next.redemption_id = "second";
  next.previous_receipt_hash = first.hash;
  SignedReceipt second = *SignReceipt(next, Treasury());
  EXPECT_THAT(second.text, HasSubstr(" previous_receipt_hash=" + HexEncode(first.hash)));
  EXPECT_EQ(ParseReceiptText(second.text)->previous_receipt_hash, first.hash);
  EXPECT_NE(second.hash, first.hash);
}

TEST(ReceiptTest, RejectsNonCanonicalText) {
  auto replaced = [](std::string_view from, std::string_view to) {
    std::string text = kSampleText;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  EXPECT_FALSE(ParseReceiptText(kSampleText + "\n").ok());
  EXPECT_FALSE(ParseReceiptText(kSampleText + " ").ok());
  EXPECT_FALSE(ParseReceiptText(replaced(" wallet", "  wallet")).ok());
  EXPECT_FALSE(ParseReceiptText(replaced("netgraph-receipt-v1", "netgraph-receipt-v2")).ok());
  EXPECT_FALSE(ParseReceiptText(replaced("amount=1234567", "amount=01234567")).ok());
  EXPECT_FALSE(ParseReceiptText(replaced("amount=1234567", "amount=+1234567")).ok());
  EXPECT_FALSE(ParseReceiptText(replaced("amount=1234567", "amount=18446744073709551616")).ok());
  EXPECT_FALSE(ParseReceiptText(replaced("decimals=2", "decimals=256")).ok());
  EXPECT_FALSE(ParseReceiptText(replaced("decimals=2", "decimals=")).ok());
  EXPECT_FALSE(ParseReceiptText(replaced("hash=0000", "hash=000A")).ok());
  EXPECT_FALSE(
      ParseReceiptText(replaced("time=2026-03-01T12:34:56Z", "time=2026-03-01 12:34:56Z")).ok());
  EXPECT_FALSE(ParseReceiptText(replaced("mint=EPjF", "mint=EPjO")).ok());
  // Fields out of order.
  EXPECT_FALSE(
      ParseReceiptText(
          replaced(" decimals=2", "").replace(kSampleText.find(" amount="), 0, " decimals=2"))
          .ok());
  EXPECT_THAT(
      ParseReceiptText(replaced("confidential_public_key=fvxV", "confidential_public_key=AAAA"))
          .status()
          .message(),
      HasSubstr("ElGamal public key"));
  EXPECT_TRUE(ParseReceiptText(replaced("amount=1234567", "amount=18446744073709551615")).ok());
}

TEST(ReceiptTest, ValidatesRedemptionIdAndTime) {
  Receipt receipt = SampleReceipt();
  for (std::string id : {std::string(), std::string("has space"), std::string("semi;colon"),
                         std::string(65, 'a'), std::string("ünïcode")}) {
    receipt.redemption_id = id;
    EXPECT_FALSE(ReceiptText(receipt).ok()) << id;
  }
  receipt.redemption_id = "42";
  EXPECT_TRUE(ReceiptText(receipt).ok());

  for (std::string time : {"2026-03-01T12:34:56.5Z", "2026-03-01T12:34:56.123456789Z",
                           "2024-02-29T00:00:00Z", "2026-12-31T23:59:59Z"}) {
    receipt.time = time;
    EXPECT_TRUE(ReceiptText(receipt).ok()) << time;
  }
  for (std::string time :
       {"2026-03-01T12:34:56", "2026-03-01T12:34:56+00:00", "2026-03-01t12:34:56Z",
        "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-03-01T24:00:00Z",
        "2026-03-01T12:60:00Z", "2026-03-01T12:34:60Z", "2026-03-01T12:34:56.Z",
        "2026-03-01T12:34:56.1234567890Z", "26-03-01T12:34:56Z", "2026-03-01T12:34:5aZ", ""}) {
    receipt.time = time;
    EXPECT_FALSE(ReceiptText(receipt).ok()) << time;
  }
}

}  // namespace
}  // namespace netgraph::crypto
