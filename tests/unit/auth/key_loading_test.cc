// TokenVerifier::Create: key files, PEM and JWKS parsing, and the configuration errors they cause.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "core/auth/internal/jwks.h"
#include "core/auth/token_verifier.h"
#include "tests/unit/auth/test_crypto.h"

namespace netgraph::auth {
namespace {

using testing::EcKey;
using ::testing::HasSubstr;
using testing::PublicJwk;
using testing::PublicPem;
using testing::RsaKey;
using ::testing::StartsWith;
using testing::TempDir;
using json = nlohmann::json;

// These tests are about the key files, so the configuration accepts any issuer and audience.
AuthConfig AnyIssuerAudience() {
  AuthConfig config;
  config.allow_any_issuer_audience = true;
  return config;
}

class KeyLoadingTest : public ::testing::Test {
 protected:
  std::string CreateErrorWithPem(std::string_view pem, JwtAlgorithm algorithm) {
    return CreateError(&AuthConfig::public_key_file, "key.pem", pem, algorithm);
  }
  std::string CreateErrorWithJwks(std::string_view jwks, JwtAlgorithm algorithm) {
    return CreateError(&AuthConfig::jwks_file, "jwks.json", jwks, algorithm);
  }

  // Why TokenVerifier::Create refuses `algorithm` with `text` written to `name` and set as the
  // configuration's `file`.
  std::string CreateError(std::string AuthConfig::*file, const std::string& name,
                          std::string_view text, JwtAlgorithm algorithm) {
    AuthConfig config = AnyIssuerAudience();
    config.algorithm = algorithm;
    config.*file = dir_.Write(name, text);
    Result<TokenVerifier> verifier = TokenVerifier::Create(config);
    EXPECT_FALSE(verifier.ok());
    return verifier.status().message();
  }

  TempDir dir_;
};

TEST_F(KeyLoadingTest, AcceptsMatchingPemKeys) {
  AuthConfig config = AnyIssuerAudience();
  config.public_key_file = dir_.Write("ec.pem", PublicPem(EcKey()));
  EXPECT_TRUE(TokenVerifier::Create(config).ok());
  config.algorithm = JwtAlgorithm::kRS256;
  config.public_key_file = dir_.Write("rsa.pem", PublicPem(RsaKey()));
  EXPECT_TRUE(TokenVerifier::Create(config).ok());
}

TEST_F(KeyLoadingTest, MissingFile) {
  AuthConfig config = AnyIssuerAudience();
  config.public_key_file = (dir_.path() / "absent.pem").string();
  Result<TokenVerifier> verifier = TokenVerifier::Create(config);
  ASSERT_FALSE(verifier.ok());
  EXPECT_THAT(verifier.status().message(), StartsWith("NETGRAPH_JWT_PUBLIC_KEY_FILE "));
  EXPECT_THAT(verifier.status().message(), HasSubstr("No such file or directory"));
}

TEST_F(KeyLoadingTest, UnreadableFile) {
  AuthConfig config = AnyIssuerAudience();
  config.jwks_file = dir_.path().string();  // a directory opens but cannot be read
  Result<TokenVerifier> verifier = TokenVerifier::Create(config);
  ASSERT_FALSE(verifier.ok());
  EXPECT_THAT(verifier.status().message(), StartsWith("NETGRAPH_JWT_JWKS_FILE "));
  EXPECT_THAT(verifier.status().message(), HasSubstr("cannot read"));
}

TEST_F(KeyLoadingTest, RejectsWhatIsNotAPemPublicKey) {
  EXPECT_THAT(CreateErrorWithPem("hello", JwtAlgorithm::kES256), HasSubstr("not a PEM public key"));
  EXPECT_THAT(CreateErrorWithPem(testing::PrivatePem(EcKey()), JwtAlgorithm::kES256),
              HasSubstr("not a PEM public key"));
  std::string truncated = PublicPem(EcKey());
  truncated.resize(truncated.size() / 2);
  EXPECT_THAT(CreateErrorWithPem(truncated, JwtAlgorithm::kES256),
              HasSubstr("not a PEM public key"));
}

TEST_F(KeyLoadingTest, RejectsKeysThatDoNotSuitTheAlgorithm) {
  EXPECT_THAT(CreateErrorWithPem(PublicPem(RsaKey()), JwtAlgorithm::kES256),
              HasSubstr("ES256 needs an EC P-256 key, not RSA 2048 bits"));
  EXPECT_THAT(CreateErrorWithPem(PublicPem(EcKey()), JwtAlgorithm::kRS256),
              HasSubstr("RS256 needs an RSA key of at least 2048 bits, not EC prime256v1"));
  EXPECT_THAT(
      CreateErrorWithPem(PublicPem(testing::GenerateEcKey("P-384").get()), JwtAlgorithm::kES256),
      HasSubstr("not EC secp384r1"));
  EXPECT_THAT(
      CreateErrorWithPem(PublicPem(testing::GenerateRsaKey(1024).get()), JwtAlgorithm::kRS256),
      HasSubstr("not RSA 1024 bits"));
}

TEST_F(KeyLoadingTest, RejectsInvalidJwksDocuments) {
  EXPECT_THAT(CreateErrorWithJwks("{", JwtAlgorithm::kES256), HasSubstr("JWKS is not valid JSON"));
  EXPECT_THAT(CreateErrorWithJwks("[]", JwtAlgorithm::kES256),
              HasSubstr("JWKS is not an object with a \"keys\" array"));
  EXPECT_THAT(CreateErrorWithJwks(R"({"keys":{}})", JwtAlgorithm::kES256),
              HasSubstr("\"keys\" array"));
  EXPECT_THAT(CreateErrorWithJwks(R"({"keys":[]})", JwtAlgorithm::kES256),
              HasSubstr("JWKS has no key for ES256"));
  EXPECT_THAT(CreateErrorWithJwks(R"({"keys":[7]})", JwtAlgorithm::kES256),
              HasSubstr("keys[0] is not an object"));
}

TEST_F(KeyLoadingTest, ConvertsJwksKeysToTheSamePemOpenSslWrites) {
  json jwks = {{"keys", {PublicJwk(EcKey(), "ec-1")}}};
  Result<std::vector<VerificationKey>> ec =
      VerificationKeysFromJwks(jwks.dump(), JwtAlgorithm::kES256);
  ASSERT_TRUE(ec.ok()) << ec.status().message();
  ASSERT_EQ(ec->size(), 1u);
  EXPECT_EQ((*ec)[0].kid, "ec-1");
  EXPECT_EQ((*ec)[0].public_key_pem, PublicPem(EcKey()));

  jwks = {{"keys", {PublicJwk(RsaKey(), std::nullopt)}}};
  Result<std::vector<VerificationKey>> rsa =
      VerificationKeysFromJwks(jwks.dump(), JwtAlgorithm::kRS256);
  ASSERT_TRUE(rsa.ok()) << rsa.status().message();
  ASSERT_EQ(rsa->size(), 1u);
  EXPECT_EQ((*rsa)[0].kid, std::nullopt);
  EXPECT_EQ((*rsa)[0].public_key_pem, PublicPem(RsaKey()));
}

TEST_F(KeyLoadingTest, KeepsOnlyJwksKeysThatSuitTheAlgorithm) {
  json p384 = PublicJwk(testing::GenerateEcKey("P-384").get(), "p384");
  json for_encryption = PublicJwk(EcKey(), "enc");
  for_encryption["use"] = "enc";
  json for_es384 = PublicJwk(EcKey(), "es384");
  for_es384["alg"] = "ES384";
  json sign_only = PublicJwk(EcKey(), "sign-only");
  sign_only["key_ops"] = {"sign"};
  json symmetric = {{"kty", "oct"}, {"k", "c2VjcmV0"}, {"kid", "oct"}};
  json usable = PublicJwk(EcKey(), "usable");
  usable["use"] = "sig";
  usable["alg"] = "ES256";
  usable["key_ops"] = {"verify"};
  json jwks = {{"keys",
                {p384, for_encryption, for_es384, sign_only, symmetric, PublicJwk(RsaKey(), "rsa"),
                 usable}}};

  Result<std::vector<VerificationKey>> es256 =
      VerificationKeysFromJwks(jwks.dump(), JwtAlgorithm::kES256);
  ASSERT_TRUE(es256.ok()) << es256.status().message();
  ASSERT_EQ(es256->size(), 1u);
  EXPECT_EQ((*es256)[0].kid, "usable");

  Result<std::vector<VerificationKey>> rs256 =
      VerificationKeysFromJwks(jwks.dump(), JwtAlgorithm::kRS256);
  ASSERT_TRUE(rs256.ok()) << rs256.status().message();
  ASSERT_EQ(rs256->size(), 1u);
  EXPECT_EQ((*rs256)[0].kid, "rsa");
}

TEST_F(KeyLoadingTest, RejectsMalformedSuitableJwksKeys) {
  auto error_for = [](const json& jwk, JwtAlgorithm algorithm) {
    Result<std::vector<VerificationKey>> keys =
        VerificationKeysFromJwks(json{{"keys", {jwk}}}.dump(), algorithm);
    EXPECT_FALSE(keys.ok());
    return keys.status().message();
  };
  json short_x = PublicJwk(EcKey(), "k");
  short_x["x"] = testing::Base64UrlEncode(std::string(31, '\x01'));
  EXPECT_THAT(error_for(short_x, JwtAlgorithm::kES256), HasSubstr("must be 32 bytes"));

  json off_curve = PublicJwk(EcKey(), "k");
  off_curve["y"] = testing::Base64UrlEncode(std::string(32, '\x01'));
  EXPECT_THAT(error_for(off_curve, JwtAlgorithm::kES256), HasSubstr("keys[0]"));

  json padded = PublicJwk(EcKey(), "k");
  padded["x"] = padded["x"].get<std::string>() + "=";
  EXPECT_THAT(error_for(padded, JwtAlgorithm::kES256),
              HasSubstr("member x is not a base64url string"));

  json no_modulus = PublicJwk(RsaKey(), "k");
  no_modulus.erase("n");
  EXPECT_THAT(error_for(no_modulus, JwtAlgorithm::kRS256),
              HasSubstr("member n is not a base64url string"));

  EXPECT_THAT(
      error_for(PublicJwk(testing::GenerateRsaKey(1024).get(), "small"), JwtAlgorithm::kRS256),
      HasSubstr("not RSA 1024 bits"));

  json numeric_kid = PublicJwk(EcKey(), std::nullopt);
  numeric_kid["kid"] = 5;
  EXPECT_THAT(error_for(numeric_kid, JwtAlgorithm::kES256), HasSubstr("kid is not a string"));
}

TEST_F(KeyLoadingTest, RejectsDuplicateKids) {
  json jwks = {{"keys", {PublicJwk(EcKey(), "same"), PublicJwk(testing::OtherEcKey(), "same")}}};
  EXPECT_THAT(CreateErrorWithJwks(jwks.dump(), JwtAlgorithm::kES256),
              HasSubstr("keys[1]: kid 'same' appears twice"));
}

}  // namespace
}  // namespace netgraph::auth
