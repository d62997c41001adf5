#include "core/auth/token_minter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/auth/token_verifier.h"
#include "core/crypto/base64.h"
#include "tests/unit/auth/test_crypto.h"

namespace netgraph::auth {
namespace {

using testing::EcKey;
using ::testing::HasSubstr;
using testing::kNow;
using testing::kNowSeconds;
using testing::PrivatePem;
using testing::PublicPem;
using testing::RsaKey;
using ::testing::StartsWith;
using json = nlohmann::json;

TokenMinter Minter(JwtAlgorithm algorithm, const EVP_PKEY* key) {
  Result<TokenMinter> minter = TokenMinter::Create(algorithm, PrivatePem(key));
  if (!minter.ok()) throw std::runtime_error(minter.status().message());
  return std::move(minter).value();
}

std::string Mint(const TokenMinter& minter, const MintOptions& options) {
  Result<std::string> token = minter.Mint(options, kNow);
  if (!token.ok()) throw std::runtime_error(token.status().message());
  return std::move(token).value();
}

// Part `index` (0 header, 1 payload) of a compact JWS, decoded and parsed.
json Part(const std::string& token, int index) {
  std::size_t begin = 0;
  for (int i = 0; i < index; ++i) begin = token.find('.', begin) + 1;
  Result<std::string> text =
      crypto::Base64UrlDecode(token.substr(begin, token.find('.', begin) - begin));
  if (!text.ok()) throw std::runtime_error("not base64url");
  return json::parse(*text);
}

class TokenMinterTest : public ::testing::Test {
 protected:
  TokenVerifier Verifier(JwtAlgorithm algorithm, const EVP_PKEY* key) {
    AuthConfig config;
    config.algorithm = algorithm;
    config.public_key_file = dir_.Write("key.pem", PublicPem(key));
    config.issuer = "netgraph-dev";
    config.audience = "netgraph";
    config.admin_role_claim = AdminRoleClaim{"roles", "admin"};
    Result<TokenVerifier> verifier = TokenVerifier::Create(config);
    if (!verifier.ok()) throw std::runtime_error(verifier.status().message());
    return std::move(verifier).value();
  }

  testing::TempDir dir_;
};

MintOptions Options() {
  MintOptions options;
  options.subject = "did:privy:bob";
  options.email = "bob@example.com";
  options.issuer = "netgraph-dev";
  options.audience = "netgraph";
  return options;
}

TEST_F(TokenMinterTest, MintsEs256TokensTheVerifierAccepts) {
  std::string token = Mint(Minter(JwtAlgorithm::kES256, EcKey()), Options());
  Result<Identity> identity = Verifier(JwtAlgorithm::kES256, EcKey()).Verify(token, kNow).identity;
  ASSERT_TRUE(identity.ok()) << identity.status().message();
  EXPECT_EQ(identity->subject, "did:privy:bob");
  EXPECT_EQ(identity->email, "bob@example.com");
  EXPECT_FALSE(identity->is_admin_by_claim);
  EXPECT_EQ(identity->expires_at, kNow + std::chrono::hours(1));
}

TEST_F(TokenMinterTest, MintsRs256TokensTheVerifierAccepts) {
  std::string token = Mint(Minter(JwtAlgorithm::kRS256, RsaKey()), Options());
  EXPECT_EQ(Part(token, 0)["alg"], "RS256");
  Result<Identity> identity = Verifier(JwtAlgorithm::kRS256, RsaKey()).Verify(token, kNow).identity;
  ASSERT_TRUE(identity.ok()) << identity.status().message();
  EXPECT_EQ(identity->subject, "did:privy:bob");
}

// libjwt 1.10.2 converts OpenSSL's DER signature to JOSE's R || S; check that with OpenSSL alone.
TEST_F(TokenMinterTest, Es256SignaturesAreRawRAndS) {
  std::string token = Mint(Minter(JwtAlgorithm::kES256, EcKey()), Options());
  Result<std::string> signature = crypto::Base64UrlDecode(token.substr(token.rfind('.') + 1));
  ASSERT_TRUE(signature.ok());
  EXPECT_EQ(signature->size(), 64u);
  EXPECT_TRUE(testing::VerifiesAsEs256(token, EcKey()));
  EXPECT_FALSE(testing::VerifiesAsEs256(token, testing::OtherEcKey()));
}

TEST_F(TokenMinterTest, WritesTheRequestedClaimsAndHeader) {
  MintOptions options = Options();
  options.ttl = std::chrono::seconds(600);
  options.roles = {"user", "admin"};
  options.kid = "dev-1";
  std::string token = Mint(Minter(JwtAlgorithm::kES256, EcKey()), options);
  EXPECT_EQ(Part(token, 0), (json{{"alg", "ES256"}, {"typ", "JWT"}, {"kid", "dev-1"}}));
  EXPECT_EQ(Part(token, 1), (json{{"sub", "did:privy:bob"},
                                  {"email", "bob@example.com"},
                                  {"iss", "netgraph-dev"},
                                  {"aud", "netgraph"},
                                  {"roles", {"user", "admin"}},
                                  {"iat", kNowSeconds},
                                  {"exp", kNowSeconds + 600}}));
  Result<Identity> identity = Verifier(JwtAlgorithm::kES256, EcKey()).Verify(token, kNow).identity;
  ASSERT_TRUE(identity.ok()) << identity.status().message();
  EXPECT_TRUE(identity->is_admin_by_claim);
}

TEST_F(TokenMinterTest, OmitsOptionalClaims) {
  MintOptions options;
  options.subject = "did:privy:carol";
  json claims = Part(Mint(Minter(JwtAlgorithm::kES256, EcKey()), options), 1);
  EXPECT_EQ(claims,
            (json{{"sub", "did:privy:carol"}, {"iat", kNowSeconds}, {"exp", kNowSeconds + 3600}}));
}

TEST_F(TokenMinterTest, ExpiredTokensAreRejectedWhateverTheLeeway) {
  MintOptions options = Options();
  options.expired = true;
  std::string token = Mint(Minter(JwtAlgorithm::kES256, EcKey()), options);
  EXPECT_EQ(Part(token, 1)["exp"], kNowSeconds - 3600);
  AuthConfig config;
  config.public_key_file = dir_.Write("key.pem", PublicPem(EcKey()));
  config.allow_any_issuer_audience = true;
  config.leeway_seconds = AuthConfig::kMaxLeewaySeconds;
  Result<TokenVerifier> verifier = TokenVerifier::Create(config);
  ASSERT_TRUE(verifier.ok());
  Result<Identity> identity = verifier->Verify(token, kNow).identity;
  ASSERT_FALSE(identity.ok());
  EXPECT_THAT(identity.status().message(), StartsWith("token expired"));
}

TEST_F(TokenMinterTest, RefusesKeysThatDoNotFit) {
  EXPECT_THAT(TokenMinter::Create(JwtAlgorithm::kES256, PrivatePem(RsaKey())).status().message(),
              HasSubstr("ES256 needs an EC P-256 key"));
  EXPECT_THAT(TokenMinter::Create(JwtAlgorithm::kRS256, PrivatePem(EcKey())).status().message(),
              HasSubstr("RS256 needs an RSA key"));
  EXPECT_THAT(TokenMinter::Create(JwtAlgorithm::kES256, PublicPem(EcKey())).status().message(),
              HasSubstr("not an unencrypted PEM private key"));
  // An encrypted key is refused without prompting for a passphrase.
  EXPECT_THAT(
      TokenMinter::Create(JwtAlgorithm::kES256, testing::EncryptedPrivatePem(EcKey(), "secret"))
          .status()
          .message(),
      HasSubstr("not an unencrypted PEM private key"));
}

TEST_F(TokenMinterTest, ReadsTheKeyFromAFile) {
  Result<TokenMinter> minter =
      TokenMinter::FromFile(JwtAlgorithm::kES256, dir_.Write("dev.pem", PrivatePem(EcKey())));
  ASSERT_TRUE(minter.ok()) << minter.status().message();
  EXPECT_TRUE(minter->Mint(Options(), kNow).ok());

  std::string absent = (dir_.path() / "absent.pem").string();
  EXPECT_THAT(TokenMinter::FromFile(JwtAlgorithm::kES256, absent).status().message(),
              HasSubstr("cannot open " + absent));
  std::string wrong = dir_.Write("rsa.pem", PrivatePem(RsaKey()));
  EXPECT_THAT(TokenMinter::FromFile(JwtAlgorithm::kES256, wrong).status().message(),
              StartsWith(wrong + ": ES256 needs"));
}

}  // namespace
}  // namespace netgraph::auth
