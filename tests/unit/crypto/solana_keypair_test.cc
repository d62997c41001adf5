#include "core/crypto/solana_keypair.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/crypto/hex.h"
#include "test_bytes.h"
#include "tests/support/temp_dir.h"

namespace netgraph::crypto {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kSeedHex =
    "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";

// RFC 8032 test 1's key as a Solana keypair file.
constexpr std::string_view kKeypairJson =
    "[157,97,177,157,239,253,90,96,186,132,74,244,146,236,44,196,68,73,197,105,123,50,105,25,112,"
    "59,172,3,28,174,127,96,215,90,152,1,130,177,10,183,213,75,254,211,201,100,7,58,14,225,114,243,"
    "218,166,35,37,175,2,26,104,247,7,81,26]";

TEST(SolanaKeypairTest, WritesSeedThenPublicKey) {
  Result<Ed25519Keypair> keypair = Ed25519Keypair::FromSeed(FromHex<32>(kSeedHex));
  ASSERT_TRUE(keypair.ok());
  EXPECT_EQ(ToSolanaKeypairJson(*keypair), kKeypairJson);
}

TEST(SolanaKeypairTest, ParsesSolanaKeygenOutput) {
  Result<Ed25519Keypair> keypair = ParseSolanaKeypairJson(kKeypairJson);
  ASSERT_TRUE(keypair.ok()) << keypair.status().message();
  EXPECT_EQ(HexEncode(keypair->public_key()),
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  // Whitespace and a trailing newline, as other tools write it.
  std::string spaced = "[ " + std::string(kKeypairJson.substr(1, kKeypairJson.size() - 2)) + " ]\n";
  EXPECT_TRUE(ParseSolanaKeypairJson(spaced).ok());
}

TEST(SolanaKeypairTest, RejectsMalformedKeypairs) {
  EXPECT_FALSE(ParseSolanaKeypairJson("").ok());
  EXPECT_FALSE(ParseSolanaKeypairJson("{}").ok());
  EXPECT_FALSE(ParseSolanaKeypairJson("[1,2,3]").ok());
  std::string json(kKeypairJson);
  EXPECT_FALSE(ParseSolanaKeypairJson(json.substr(0, json.size() - 1)).ok());  // no ']'
  EXPECT_FALSE(ParseSolanaKeypairJson(std::string(json).replace(1, 3, "256")).ok());
  EXPECT_FALSE(ParseSolanaKeypairJson(std::string(json).replace(1, 3, "-1")).ok());
  EXPECT_FALSE(ParseSolanaKeypairJson(std::string(json).replace(1, 3, "1.5")).ok());
  EXPECT_FALSE(ParseSolanaKeypairJson(std::string(json).replace(1, 3, "1e2")).ok());
  EXPECT_FALSE(ParseSolanaKeypairJson(std::string(json).replace(1, 3, "0157")).ok());
  EXPECT_FALSE(ParseSolanaKeypairJson(json + ",").ok());
  EXPECT_FALSE(ParseSolanaKeypairJson(json.substr(0, json.size() - 1) + ",1]").ok());
  EXPECT_FALSE(ParseSolanaKeypairJson(std::string(json).replace(1, 3, "\"9\"")).ok());
}

TEST(SolanaKeypairTest, RejectsAPublicKeyThatDoesNotMatchTheSeed) {
  std::string json(kKeypairJson);
  json.replace(json.rfind(',') + 1, 2, "27");  // last byte 26 -> 27
  Result<Ed25519Keypair> keypair = ParseSolanaKeypairJson(json);
  ASSERT_FALSE(keypair.ok());
  EXPECT_THAT(keypair.status().message(), HasSubstr("does not match"));
}

TEST(SolanaKeypairTest, FileRoundTripIsPrivateAndNeverOverwritten) {
  testing::TempDir dir("netgraph-keypair");
  const std::filesystem::path file = dir.path() / "keypair.json";
  Result<Ed25519Keypair> keypair = Ed25519Keypair::Generate();
  ASSERT_TRUE(keypair.ok());
  ASSERT_TRUE(WriteSolanaKeypairFile(file, *keypair).ok());
  EXPECT_EQ(std::filesystem::status(file).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  Result<Ed25519Keypair> read = ReadSolanaKeypairFile(file);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->public_key(), keypair->public_key());

  Result<Ed25519Keypair> other = Ed25519Keypair::Generate();
  EXPECT_FALSE(WriteSolanaKeypairFile(file, *other).ok());
  EXPECT_EQ(ReadSolanaKeypairFile(file)->public_key(), keypair->public_key());
}

TEST(SolanaKeypairTest, ReadErrorsNameTheFile) {
  testing::TempDir dir("netgraph-keypair");
  const std::filesystem::path file = dir.path() / "missing.json";
  Result<Ed25519Keypair> missing = ReadSolanaKeypairFile(file);
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr(file.string()));
  std::ofstream(file) << "[1,2]";
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);  // rewriting below keeps the mode
  EXPECT_THAT(ReadSolanaKeypairFile(file).status().message(), HasSubstr("64 numbers"));
  std::ofstream(file) << std::string(5000, ' ');
  EXPECT_THAT(ReadSolanaKeypairFile(file).status().message(), HasSubstr("too large"));
}

TEST(SolanaKeypairTest, RefusesFilesOthersCanReadLikeSsh) {
  testing::TempDir dir("netgraph-keypair");
  const std::filesystem::path file = dir.path() / "shared.json";
  Result<Ed25519Keypair> keypair = Ed25519Keypair::Generate();
  ASSERT_TRUE(WriteSolanaKeypairFile(file, *keypair).ok());
  for (mode_t mode : {0644, 0640, 0604, 0620}) {
    ASSERT_EQ(::chmod(file.c_str(), mode), 0);
    Result<Ed25519Keypair> read = ReadSolanaKeypairFile(file);
    ASSERT_FALSE(read.ok()) << std::oct << mode;
    EXPECT_THAT(read.status().message(), HasSubstr(file.string()));
    EXPECT_THAT(read.status().message(), HasSubstr("accessible by group or others"));
    EXPECT_THAT(read.status().message(), HasSubstr("chmod 600"));
  }
  ASSERT_EQ(::chmod(file.c_str(), 0400), 0);
  EXPECT_TRUE(ReadSolanaKeypairFile(file).ok());
}

TEST(SolanaKeypairTest, RefusesFilesOwnedByAnotherUser) {
  testing::TempDir dir("netgraph-keypair");
  const std::filesystem::path file = dir.path() / "foreign.json";
  Result<Ed25519Keypair> keypair = Ed25519Keypair::Generate();
  ASSERT_TRUE(WriteSolanaKeypairFile(file, *keypair).ok());
  const uid_t other = ::geteuid() == 65534 ? 65533 : 65534;
  if (::chown(file.c_str(), other, static_cast<gid_t>(-1)) != 0) {
    GTEST_SKIP() << "only root can give a file to another user";
  }
  Result<Ed25519Keypair> read = ReadSolanaKeypairFile(file);
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.status().message(), HasSubstr("is owned by uid " + std::to_string(other)));
}

TEST(SolanaKeypairTest, DevelopmentKeyIsCreatedOnceThenReused) {
  testing::TempDir dir("netgraph-keypair");
  const std::filesystem::path file = dir.path() / "dev-treasury.json";
  Result<Ed25519Keypair> first = ReadOrCreateSolanaKeypairFile(file);
  ASSERT_TRUE(first.ok()) << first.status().message();
  ASSERT_TRUE(std::filesystem::exists(file));
  Result<Ed25519Keypair> second = ReadOrCreateSolanaKeypairFile(file);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->public_key(), first->public_key());
  // A signature by the reloaded key verifies under the first one's public key.
  Result<Bytes64> signature = second->Sign(AsBytes("receipt"));
  EXPECT_TRUE(Ed25519Verify(first->public_key(), AsBytes("receipt"), *signature));
}

}  // namespace
}  // namespace netgraph::crypto
