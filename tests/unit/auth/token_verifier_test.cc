#include "core/auth/token_verifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <jwt.h>

#include <optional>
#include <set>
#include <string>
#include <utility>

#include "core/auth/internal/libjwt_handles.h"
#include "core/auth/token_refusal.h"
#include "tests/unit/auth/test_crypto.h"

namespace netgraph::auth {
namespace {

using ::testing::AllOf;
using testing::Base64UrlEncode;
using testing::EcdsaForm;
using testing::EcKey;
using ::testing::HasSubstr;
using testing::kNow;
using testing::kNowSeconds;
using testing::OtherEcKey;
using testing::PublicJwk;
using testing::PublicPem;
using testing::RsaKey;
using testing::SignHs256;
using testing::SignJws;
using ::testing::StartsWith;
using json = nlohmann::json;

json Header(const std::string& alg = "ES256") { return {{"alg", alg}, {"typ", "JWT"}}; }

json Claims() {
  return {{"sub", "did:privy:alice"},
          {"email", "alice@example.com"},
          {"iat", kNowSeconds},
          {"exp", kNowSeconds + 3600}};
}

// `claims` with `name` set to `value`.
json With(json claims, const std::string& name, json value) {
  claims[name] = std::move(value);
  return claims;
}

class TokenVerifierTest : public ::testing::Test {
 protected:
  // Most tests are about something else than iss and aud, so they accept any.
  AuthConfig EcPemConfig() {
    AuthConfig config;
    config.public_key_file = dir_.Write("ec.pem", PublicPem(EcKey()));
    config.allow_any_issuer_audience = true;
    return config;
  }
  AuthConfig JwksConfig(JwtAlgorithm algorithm, const std::vector<json>& keys) {
    AuthConfig config;
    config.allow_any_issuer_audience = true;
    config.algorithm = algorithm;
    config.jwks_file = dir_.Write("jwks.json", json{{"keys", keys}}.dump());
    return config;
  }
  static TokenVerifier Verifier(const AuthConfig& config) {
    Result<TokenVerifier> verifier = TokenVerifier::Create(config);
    if (!verifier.ok()) throw std::runtime_error(verifier.status().message());
    return std::move(verifier).value();
  }
  // The verifier of most tests: ES256 with EcKey()'s PEM and default settings.
  TokenVerifier EcVerifier() { return Verifier(EcPemConfig()); }

  static std::string Rejection(const TokenVerifier& verifier, const std::string& token,
                               std::chrono::system_clock::time_point now = kNow) {
    Result<Identity> identity = verifier.Verify(token, now).identity;
    EXPECT_FALSE(identity.ok()) << "accepted: " << token;
    // Every refusal has the one code callers act on (a 401-like answer), whatever its reason.
    EXPECT_TRUE(identity.status().IsUnauthenticated()) << identity.status().message();
    return identity.status().message();
  }
  static void ExpectAccepted(const TokenVerifier& verifier, const std::string& token,
                             std::chrono::system_clock::time_point now = kNow) {
    Result<Identity> identity = verifier.Verify(token, now).identity;
    EXPECT_TRUE(identity.ok()) << identity.status().message();
  }

  testing::TempDir dir_;
};

TEST_F(TokenVerifierTest, AcceptsAnIndependentlySignedEs256Token) {
  Result<Identity> identity =
      EcVerifier().Verify(SignJws(Header(), Claims(), EcKey()), kNow).identity;
  ASSERT_TRUE(identity.ok()) << identity.status().message();
  EXPECT_EQ(identity->subject, "did:privy:alice");
  EXPECT_EQ(identity->email, "alice@example.com");
  EXPECT_FALSE(identity->is_admin_by_claim);
  EXPECT_EQ(identity->expires_at, kNow + std::chrono::hours(1));
}

TEST_F(TokenVerifierTest, AcceptsAnIndependentlySignedRs256Token) {
  AuthConfig config;
  config.allow_any_issuer_audience = true;
  config.algorithm = JwtAlgorithm::kRS256;
  config.public_key_file = dir_.Write("rsa.pem", PublicPem(RsaKey()));
  Result<Identity> identity =
      Verifier(config).Verify(SignJws(Header("RS256"), Claims(), RsaKey()), kNow).identity;
  ASSERT_TRUE(identity.ok()) << identity.status().message();
  EXPECT_EQ(identity->subject, "did:privy:alice");
}

TEST_F(TokenVerifierTest, EmailIsOptional) {
  json claims = Claims();
  claims.erase("email");
  Result<Identity> identity =
      EcVerifier().Verify(SignJws(Header(), claims, EcKey()), kNow).identity;
  ASSERT_TRUE(identity.ok()) << identity.status().message();
  EXPECT_EQ(identity->email, std::nullopt);

  identity =
      EcVerifier().Verify(SignJws(Header(), With(Claims(), "email", 42), EcKey()), kNow).identity;
  ASSERT_TRUE(identity.ok()) << identity.status().message();
  EXPECT_EQ(identity->email, std::nullopt);
}

TEST_F(TokenVerifierTest, PemKeyIgnoresTheKid) {
  json header = Header();
  header["kid"] = "whatever-the-idp-stamps";
  ExpectAccepted(EcVerifier(), SignJws(header, Claims(), EcKey()));
}

TEST_F(TokenVerifierTest, JwksPicksTheKeyByKid) {
  TokenVerifier verifier = Verifier(JwksConfig(
      JwtAlgorithm::kES256,
      {PublicJwk(EcKey(), "k1"), PublicJwk(OtherEcKey(), "k2"), PublicJwk(RsaKey(), "r1")}));
  json header = Header();
  header["kid"] = "k2";
  ExpectAccepted(verifier, SignJws(header, Claims(), OtherEcKey()));
  header["kid"] = "k1";
  ExpectAccepted(verifier, SignJws(header, Claims(), EcKey()));
  EXPECT_EQ(Rejection(verifier, SignJws(header, Claims(), OtherEcKey())),
            "signature verification failed");
  header["kid"] = "r1";  // skipped: RSA does not suit ES256
  EXPECT_EQ(Rejection(verifier, SignJws(header, Claims(), EcKey())), "unknown kid 'r1'");
  header["kid"] = "k3\x01";
  EXPECT_EQ(Rejection(verifier, SignJws(header, Claims(), EcKey())), "unknown kid 'k3?'");
  EXPECT_EQ(Rejection(verifier, SignJws(Header(), Claims(), EcKey())),
            "token has no kid and the JWKS holds 2 keys");
}

TEST_F(TokenVerifierTest, JwksWithOneKeyServesTokensWithoutKid) {
  TokenVerifier verifier = Verifier(JwksConfig(JwtAlgorithm::kES256, {PublicJwk(EcKey(), "k1")}));
  ExpectAccepted(verifier, SignJws(Header(), Claims(), EcKey()));
  json header = Header();
  header["kid"] = "k9";
  EXPECT_EQ(Rejection(verifier, SignJws(header, Claims(), EcKey())), "unknown kid 'k9'");
}

TEST_F(TokenVerifierTest, AcceptsRs256FromJwks) {
  TokenVerifier verifier = Verifier(
      JwksConfig(JwtAlgorithm::kRS256, {PublicJwk(EcKey(), "e1"), PublicJwk(RsaKey(), "r1")}));
  json header = Header("RS256");
  header["kid"] = "r1";
  ExpectAccepted(verifier, SignJws(header, Claims(), RsaKey()));
}

// Why the verifier pre-parses the header: libjwt 1.10.2 alone accepts both of these.
TEST(LibjwtTest, AloneAcceptsHs256SignedWithThePublicKeyPemAndUnsignedTokensWithoutAKey) {
  std::string pem = PublicPem(EcKey());
  std::string confused = SignHs256(Header("HS256"), Claims(), pem);
  jwt_t* raw = nullptr;
  ASSERT_EQ(jwt_decode(&raw, confused.c_str(), reinterpret_cast<const unsigned char*>(pem.data()),
                       static_cast<int>(pem.size())),
            0);
  JwtHandle decoded(raw);
  EXPECT_EQ(jwt_get_alg(decoded.get()), JWT_ALG_HS256);

  std::string unsigned_token =
      Base64UrlEncode(R"({"alg":"none"})") + "." + Base64UrlEncode(Claims().dump()) + ".";
  raw = nullptr;
  ASSERT_EQ(jwt_decode(&raw, unsigned_token.c_str(), nullptr, 0), 0);
  decoded.reset(raw);
  EXPECT_EQ(jwt_get_alg(decoded.get()), JWT_ALG_NONE);
}

TEST_F(TokenVerifierTest, RejectsHs256SignedWithThePublicKeyPem) {
  EXPECT_EQ(Rejection(EcVerifier(), SignHs256(Header("HS256"), Claims(), PublicPem(EcKey()))),
            "algorithm HS256 not allowed");
  // The PEM a JWKS key is converted to is the same text, and just as refused.
  TokenVerifier jwks = Verifier(JwksConfig(JwtAlgorithm::kES256, {PublicJwk(EcKey(), "k1")}));
  json header = Header("HS256");
  header["kid"] = "k1";
  EXPECT_EQ(Rejection(jwks, SignHs256(header, Claims(), PublicPem(EcKey()))),
            "algorithm HS256 not allowed");
}

TEST_F(TokenVerifierTest, RejectsAlgNone) {
  TokenVerifier verifier = EcVerifier();
  std::string unsigned_token =
      Base64UrlEncode(R"({"alg":"none"})") + "." + Base64UrlEncode(Claims().dump());
  EXPECT_EQ(Rejection(verifier, unsigned_token + "."), "token is unsigned");
  EXPECT_EQ(Rejection(verifier, unsigned_token), "token is not three dot-separated parts");
  EXPECT_EQ(Rejection(verifier, SignJws({{"alg", "none"}}, Claims(), EcKey())),
            "algorithm none not allowed");
  EXPECT_EQ(Rejection(verifier, SignJws({{"alg", "None"}}, Claims(), EcKey())),
            "algorithm None not allowed");
}

TEST_F(TokenVerifierTest, RejectsOtherAlgorithmsThanThePinnedOne) {
  EXPECT_EQ(Rejection(EcVerifier(), SignJws(Header("RS256"), Claims(), RsaKey())),
            "algorithm RS256 not allowed");
  // libjwt compares names without case; JOSE does not.
  EXPECT_EQ(Rejection(EcVerifier(), SignJws(Header("es256"), Claims(), EcKey())),
            "algorithm es256 not allowed");
  EXPECT_EQ(Rejection(EcVerifier(), SignJws({{"typ", "JWT"}}, Claims(), EcKey())),
            "token header has no alg");

  AuthConfig rsa;
  rsa.allow_any_issuer_audience = true;
  rsa.algorithm = JwtAlgorithm::kRS256;
  rsa.public_key_file = dir_.Write("rsa.pem", PublicPem(RsaKey()));
  EXPECT_EQ(Rejection(Verifier(rsa), SignJws(Header("ES256"), Claims(), EcKey())),
            "algorithm ES256 not allowed");
}

TEST_F(TokenVerifierTest, RejectsATokenSignedByAnotherKey) {
  EXPECT_EQ(Rejection(EcVerifier(), SignJws(Header(), Claims(), OtherEcKey())),
            "signature verification failed");
}

TEST_F(TokenVerifierTest, RejectsADerEncodedEs256Signature) {
  // DER's length follows the integers' leading bytes: 70 to 72 bytes mostly, fewer now and then
  // (69 in about one signature in 2,000). The refusal names the length this one has: its unpadded
  // base64url's characters carry 6 bits each.
  const std::string token = SignJws(Header(), Claims(), EcKey(), EcdsaForm::kDer);
  const std::size_t signature_bytes = (token.size() - token.rfind('.') - 1) * 6 / 8;
  EXPECT_EQ(Rejection(EcVerifier(), token),
            "ES256 signature is " + std::to_string(signature_bytes) + " bytes, not 64 (R || S)");
}

TEST_F(TokenVerifierTest, RejectsATamperedPayload) {
  std::string token = SignJws(Header(), Claims(), EcKey());
  std::string forged = SignJws(Header(), With(Claims(), "sub", "did:privy:mallory"), EcKey());
  // The forged payload between the genuine header and signature.
  std::string spliced = token.substr(0, token.find('.')) +
                        forged.substr(forged.find('.'), forged.rfind('.') - forged.find('.')) +
                        token.substr(token.rfind('.'));
  EXPECT_EQ(Rejection(EcVerifier(), spliced), "signature verification failed");
}

TEST_F(TokenVerifierTest, RejectsEveryTruncation) {
  TokenVerifier verifier = EcVerifier();
  std::string token = SignJws(Header(), Claims(), EcKey());
  for (std::size_t length = 0; length < token.size(); ++length) {
    Result<Identity> identity = verifier.Verify(token.substr(0, length), kNow).identity;
    EXPECT_TRUE(identity.status().IsUnauthenticated()) << length;
  }
}

TEST_F(TokenVerifierTest, RejectsGarbage) {
  TokenVerifier verifier = EcVerifier();
  for (const char* garbage : {"", "garbage", "..", "a.b.c", "a.b.c.d.e", "eyJ.eyJ.eyJ",
                              "\xff\xfe.\x00.x", "Bearer abc"}) {
    EXPECT_FALSE(verifier.Verify(garbage, kNow).ok()) << garbage;
  }
  std::string payload = Base64UrlEncode(Claims().dump());
  EXPECT_EQ(Rejection(verifier, "eyJ!." + payload + ".c2ln"), "token header is not base64url");
  EXPECT_EQ(Rejection(verifier, Base64UrlEncode(Header().dump()) + "=." + payload + ".c2ln"),
            "token header is not base64url");
  EXPECT_EQ(Rejection(verifier, Base64UrlEncode("not json") + "." + payload + ".c2ln"),
            "token header is not JSON");
  EXPECT_EQ(Rejection(verifier, Base64UrlEncode(R"(["ES256"])") + "." + payload + ".c2ln"),
            "token header is not a JSON object");
  EXPECT_EQ(Rejection(verifier, Base64UrlEncode(Header().dump()) + ".e30.c2l*"),
            "token signature is not base64url");
}

TEST_F(TokenVerifierTest, RejectsAPayloadThatIsNotAJsonObject) {
  std::string header = Base64UrlEncode(Header().dump());
  EXPECT_EQ(Rejection(EcVerifier(), header + "." + Base64UrlEncode("{\"sub\":") + ".c2ln"),
            "token payload is not JSON");
  EXPECT_EQ(Rejection(EcVerifier(), header + "." + Base64UrlEncode("[1]") + ".c2ln"),
            "token payload is not a JSON object");
}

TEST_F(TokenVerifierTest, ChecksTheHeaderType) {
  json header = Header();
  header["typ"] = "at+jwt";
  EXPECT_EQ(Rejection(EcVerifier(), SignJws(header, Claims(), EcKey())),
            "token type \"at+jwt\" not accepted");
  header["typ"] = 1;
  EXPECT_EQ(Rejection(EcVerifier(), SignJws(header, Claims(), EcKey())),
            "token type 1 not accepted");
  header["typ"] = "jwt";
  ExpectAccepted(EcVerifier(), SignJws(header, Claims(), EcKey()));
  header.erase("typ");
  ExpectAccepted(EcVerifier(), SignJws(header, Claims(), EcKey()));
}

TEST_F(TokenVerifierTest, RejectsCritAndNonStringKid) {
  json header = Header();
  header["crit"] = {"exp"};
  EXPECT_EQ(Rejection(EcVerifier(), SignJws(header, Claims(), EcKey())),
            "token header has crit, which is unsupported");
  header = Header();
  header["kid"] = 7;
  EXPECT_EQ(Rejection(EcVerifier(), SignJws(header, Claims(), EcKey())),
            "token kid is not a string");
}

TEST_F(TokenVerifierTest, RejectsOversizeTokensBeforeDecoding) {
  std::string token = SignJws(Header(), With(Claims(), "padding", std::string(7000, 'x')), EcKey());
  ASSERT_GT(token.size(), 8192u);
  EXPECT_EQ(Rejection(EcVerifier(), token),
            "token is " + std::to_string(token.size()) + " bytes, over the 8192-byte limit");
  AuthConfig larger = EcPemConfig();
  larger.max_token_bytes = 16384;
  ExpectAccepted(Verifier(larger), token);
  // Even a token of garbage is refused for its size alone.
  EXPECT_THAT(Rejection(EcVerifier(), std::string(9000, '.')), HasSubstr("over the 8192-byte"));
}

TEST_F(TokenVerifierTest, ChecksExpiry) {
  TokenVerifier verifier = EcVerifier();
  EXPECT_EQ(
      Rejection(verifier, SignJws(Header(), With(Claims(), "exp", kNowSeconds - 3600), EcKey())),
      "token expired at 1699996400 (now 1700000000, leeway 60 s)");
  json claims = Claims();
  claims.erase("exp");
  EXPECT_EQ(Rejection(verifier, SignJws(Header(), claims, EcKey())), "token has no exp claim");
  for (json bad : {json("tomorrow"), json(-1), json(1e300), json(nullptr), json::array()}) {
    EXPECT_EQ(Rejection(verifier, SignJws(Header(), With(Claims(), "exp", bad), EcKey())),
              "claim exp is not a NumericDate")
        << bad;
  }
  ExpectAccepted(verifier, SignJws(Header(), With(Claims(), "exp", kNowSeconds + 10.5), EcKey()));
}

TEST_F(TokenVerifierTest, RejectsTokensNotYetValid) {
  EXPECT_EQ(
      Rejection(EcVerifier(), SignJws(Header(), With(Claims(), "nbf", kNowSeconds + 600), EcKey())),
      "token not valid before 1700000600 (now 1700000000, leeway 60 s)");
  EXPECT_EQ(Rejection(EcVerifier(), SignJws(Header(), With(Claims(), "nbf", "soon"), EcKey())),
            "claim nbf is not a NumericDate");
}

TEST_F(TokenVerifierTest, RejectsTokensIssuedInTheFuture) {
  EXPECT_EQ(
      Rejection(EcVerifier(), SignJws(Header(), With(Claims(), "iat", kNowSeconds + 600), EcKey())),
      "token issued in the future at 1700000600 (now 1700000000, leeway 60 s)");
  json claims = Claims();
  claims.erase("iat");
  ExpectAccepted(EcVerifier(), SignJws(Header(), claims, EcKey()));
}

TEST_F(TokenVerifierTest, LeewayBoundaries) {
  TokenVerifier verifier = EcVerifier();  // leeway 60 s
  auto token = [](const char* name, std::int64_t value) {
    return SignJws(Header(), With(Claims(), name, value), EcKey());
  };
  // Valid while now < exp + leeway.
  ExpectAccepted(verifier, token("exp", kNowSeconds - 59));
  EXPECT_THAT(Rejection(verifier, token("exp", kNowSeconds - 60)), StartsWith("token expired"));
  // Valid from nbf - leeway on.
  ExpectAccepted(verifier, token("nbf", kNowSeconds + 60));
  EXPECT_THAT(Rejection(verifier, token("nbf", kNowSeconds + 61)),
              StartsWith("token not valid before"));
  // iat may be up to leeway ahead of now.
  ExpectAccepted(verifier, token("iat", kNowSeconds + 60));
  EXPECT_THAT(Rejection(verifier, token("iat", kNowSeconds + 61)),
              StartsWith("token issued in the future"));
  // Sub-second parts of `now` do not extend a token's life.
  EXPECT_THAT(
      Rejection(verifier, token("exp", kNowSeconds - 60), kNow + std::chrono::milliseconds(999)),
      StartsWith("token expired"));

  AuthConfig strict = EcPemConfig();
  strict.leeway_seconds = 0;
  TokenVerifier no_leeway = Verifier(strict);
  ExpectAccepted(no_leeway, token("exp", kNowSeconds + 1));
  EXPECT_THAT(Rejection(no_leeway, token("exp", kNowSeconds)), StartsWith("token expired"));
  ExpectAccepted(no_leeway, token("nbf", kNowSeconds));
  EXPECT_THAT(Rejection(no_leeway, token("nbf", kNowSeconds + 1)),
              StartsWith("token not valid before"));
}

TEST_F(TokenVerifierTest, NeedsIssuerAndAudienceUnlessAnyIsExplicitlyAllowed) {
  AuthConfig config = EcPemConfig();
  config.allow_any_issuer_audience = false;
  using Setting = std::optional<std::string>;
  for (auto [issuer, audience] :
       {std::pair<Setting, Setting>{}, std::pair<Setting, Setting>{"https://idp.example", {}},
        std::pair<Setting, Setting>{{}, "app-1"}}) {
    config.issuer = issuer;
    config.audience = audience;
    Result<TokenVerifier> verifier = TokenVerifier::Create(config);
    ASSERT_FALSE(verifier.ok());
    EXPECT_THAT(verifier.status().message(),
                AllOf(HasSubstr("NETGRAPH_JWT_ISSUER"), HasSubstr("NETGRAPH_JWT_AUDIENCE"),
                      HasSubstr("NETGRAPH_JWT_ALLOW_ANY_ISSUER_AUDIENCE")));
  }
  config.issuer = "https://idp.example";
  config.audience = "app-1";
  EXPECT_TRUE(TokenVerifier::Create(config).ok());
}

TEST_F(TokenVerifierTest, ChecksTheIssuerWhenConfigured) {
  json claims = With(Claims(), "iss", "https://idp.example");
  ExpectAccepted(EcVerifier(), SignJws(Header(), claims, EcKey()));

  AuthConfig config = EcPemConfig();
  config.issuer = "https://idp.example";
  TokenVerifier verifier = Verifier(config);
  ExpectAccepted(verifier, SignJws(Header(), claims, EcKey()));
  EXPECT_EQ(
      Rejection(verifier, SignJws(Header(), With(claims, "iss", "https://evil.example"), EcKey())),
      "token issuer is not NETGRAPH_JWT_ISSUER");
  EXPECT_EQ(
      Rejection(verifier, SignJws(Header(), With(claims, "iss", "https://IDP.example"), EcKey())),
      "token issuer is not NETGRAPH_JWT_ISSUER");
  EXPECT_EQ(Rejection(verifier, SignJws(Header(), Claims(), EcKey())), "token has no iss claim");
}

TEST_F(TokenVerifierTest, ChecksTheAudienceWhenConfigured) {
  ExpectAccepted(EcVerifier(), SignJws(Header(), With(Claims(), "aud", "other"), EcKey()));

  AuthConfig config = EcPemConfig();
  config.audience = "app-1";
  TokenVerifier verifier = Verifier(config);
  auto token = [](json aud) { return SignJws(Header(), With(Claims(), "aud", aud), EcKey()); };
  ExpectAccepted(verifier, token("app-1"));
  ExpectAccepted(verifier, token({"app-0", "app-1"}));
  const std::string mismatch = "token audience does not include NETGRAPH_JWT_AUDIENCE";
  EXPECT_EQ(Rejection(verifier, token("app-2")), mismatch);
  EXPECT_EQ(Rejection(verifier, token({"app-2", "app-3"})), mismatch);
  EXPECT_EQ(Rejection(verifier, token(json::array())), mismatch);
  EXPECT_EQ(Rejection(verifier, token({{"app-1", true}})), mismatch);
  EXPECT_EQ(Rejection(verifier, SignJws(Header(), Claims(), EcKey())), "token has no aud claim");
}

TEST_F(TokenVerifierTest, RequiresANonEmptyStringSubject) {
  json claims = Claims();
  claims.erase("sub");
  EXPECT_EQ(Rejection(EcVerifier(), SignJws(Header(), claims, EcKey())), "token has no sub claim");
  EXPECT_EQ(Rejection(EcVerifier(), SignJws(Header(), With(Claims(), "sub", ""), EcKey())),
            "claim sub is empty");
  EXPECT_EQ(Rejection(EcVerifier(), SignJws(Header(), With(Claims(), "sub", 12), EcKey())),
            "claim sub is not a string");
}

TEST_F(TokenVerifierTest, ChecksTheClaimsOfARepeatedTokenAgain) {
  TokenVerifier verifier = EcVerifier();
  std::string token = SignJws(Header(), Claims(), EcKey());
  ExpectAccepted(verifier, token);
  ExpectAccepted(verifier, token);
  EXPECT_THAT(Rejection(verifier, token, kNow + std::chrono::hours(2)),
              StartsWith("token expired"));
}

TEST_F(TokenVerifierTest, DoesNotRememberRejectedSignatures) {
  TokenVerifier verifier = EcVerifier();
  std::string forged = SignJws(Header(), Claims(), OtherEcKey());
  EXPECT_EQ(Rejection(verifier, forged), "signature verification failed");
  EXPECT_EQ(Rejection(verifier, forged), "signature verification failed");
}

TEST_F(TokenVerifierTest, AdminByConfiguredRoleClaim) {
  AuthConfig config = EcPemConfig();
  config.admin_role_claim = AdminRoleClaim{"roles", "admin"};
  TokenVerifier verifier = Verifier(config);
  auto is_admin = [&](const json& claims) {
    Result<Identity> identity = verifier.Verify(SignJws(Header(), claims, EcKey()), kNow).identity;
    EXPECT_TRUE(identity.ok()) << identity.status().message();
    return identity.ok() && identity->is_admin_by_claim;
  };
  EXPECT_TRUE(is_admin(With(Claims(), "roles", "admin")));
  EXPECT_TRUE(is_admin(With(Claims(), "roles", {"user", "admin"})));
  EXPECT_FALSE(is_admin(With(Claims(), "roles", {"user"})));
  EXPECT_FALSE(is_admin(With(Claims(), "roles", "administrator")));
  EXPECT_FALSE(is_admin(With(Claims(), "roles", {{"admin", true}})));
  EXPECT_FALSE(is_admin(With(Claims(), "groups", "admin")));
  EXPECT_FALSE(is_admin(Claims()));

  // Without the setting no claim makes an administrator.
  Result<Identity> identity =
      EcVerifier()
          .Verify(SignJws(Header(), With(Claims(), "roles", "admin"), EcKey()), kNow)
          .identity;
  ASSERT_TRUE(identity.ok());
  EXPECT_FALSE(identity->is_admin_by_claim);
}

// Each refusal comes with its reason beside the Status (what the counters count), whatever the
// message says: the same reason for messages that differ, told apart by what was checked.
TEST_F(TokenVerifierTest, RefusalsComeWithTheirReason) {
  AuthConfig strict = EcPemConfig();
  strict.allow_any_issuer_audience = false;
  strict.issuer = "https://issuer.test";
  strict.audience = "netgraph";
  AuthConfig from_url;
  from_url.jwks_endpoint.url = "https://127.0.0.1:9/jwks.json";
  from_url.issuer = "https://issuer.test";
  from_url.audience = "netgraph";
  const TokenVerifier verifier = EcVerifier();
  const TokenVerifier jwks = Verifier(JwksConfig(JwtAlgorithm::kES256, {PublicJwk(EcKey(), "k1")}));
  json unknown_kid = Header();
  unknown_kid["kid"] = "k9";
  struct Case {
    const char* what;
    const TokenVerifier* verifier;
    std::string token;
    TokenRefusal refusal;
  };
  const Case cases[] = {
      {"garbage", &verifier, "not-a-token", TokenRefusal::kMalformed},
      {"oversized", &verifier, std::string(70000, 'a'), TokenRefusal::kMalformed},
      {"bad header type", &verifier, SignJws(With(Header(), "typ", "at+jwt"), Claims(), EcKey()),
       TokenRefusal::kMalformed},
      {"another algorithm", &verifier, SignJws(Header("RS256"), Claims(), RsaKey()),
       TokenRefusal::kAlgorithm},
      {"unknown kid", &jwks, SignJws(unknown_kid, Claims(), EcKey()), TokenRefusal::kUnknownKey},
      {"another key", &verifier, SignJws(Header(), Claims(), OtherEcKey()),
       TokenRefusal::kSignature},
      {"expired", &verifier, SignJws(Header(), With(Claims(), "exp", kNowSeconds - 3600), EcKey()),
       TokenRefusal::kExpired},
      {"not yet valid", &verifier,
       SignJws(Header(), With(Claims(), "nbf", kNowSeconds + 3600), EcKey()),
       TokenRefusal::kNotYetValid},
      {"issued in the future", &verifier,
       SignJws(Header(), With(Claims(), "iat", kNowSeconds + 3600), EcKey()),
       TokenRefusal::kNotYetValid},
      {"exp not a date", &verifier, SignJws(Header(), With(Claims(), "exp", "soon"), EcKey()),
       TokenRefusal::kClaims},
      {"no sub", &verifier, SignJws(Header(), With(Claims(), "sub", nullptr), EcKey()),
       TokenRefusal::kClaims},
  };
  for (const Case& c : cases) {
    Verification verification = c.verifier->Verify(c.token, kNow);
    EXPECT_FALSE(verification.ok()) << c.what;
    EXPECT_TRUE(verification.identity.status().IsUnauthenticated()) << c.what;
    EXPECT_EQ(verification.refusal, c.refusal)
        << c.what << ": " << verification.identity.status().message();
  }
  Verification wrong_issuer =
      Verifier(strict).Verify(SignJws(Header(), With(Claims(), "iss", "other"), EcKey()), kNow);
  EXPECT_EQ(wrong_issuer.refusal, TokenRefusal::kClaims);
  // A key set not fetched yet has no key to choose.
  Verification unfetched = Verifier(from_url).Verify(SignJws(Header(), Claims(), EcKey()), kNow);
  EXPECT_EQ(unfetched.refusal, TokenRefusal::kUnknownKey);

  Verification accepted = verifier.Verify(SignJws(Header(), Claims(), EcKey()), kNow);
  EXPECT_TRUE(accepted.ok());
  EXPECT_EQ(accepted.refusal, std::nullopt);
}

TEST(TokenRefusalTest, EachReasonHasItsLabelAndItsCounter) {
  std::set<std::string_view> names;
  for (TokenRefusal refusal : kTokenRefusals) names.insert(TokenRefusalName(refusal));
  EXPECT_EQ(names, (std::set<std::string_view>{"malformed", "algorithm", "unknown_key", "signature",
                                               "expired", "not_yet_valid", "claims"}));
  const std::uint64_t expired = RefusalsCounted(TokenRefusal::kExpired);
  const std::uint64_t claims = RefusalsCounted(TokenRefusal::kClaims);
  CountRefusal(TokenRefusal::kExpired);
  CountRefusal(TokenRefusal::kExpired);
  EXPECT_EQ(RefusalsCounted(TokenRefusal::kExpired), expired + 2);
  EXPECT_EQ(RefusalsCounted(TokenRefusal::kClaims), claims);
}

}  // namespace
}  // namespace netgraph::auth
