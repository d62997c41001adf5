// Key generation and JWS signing for the auth tests, done with OpenSSL EVP directly so that tokens
// do not depend on libjwt or on the code under test.
#ifndef NETGRAPH_TESTS_UNIT_AUTH_TEST_CRYPTO_H_
#define NETGRAPH_TESTS_UNIT_AUTH_TEST_CRYPTO_H_

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/auth/internal/openssl_handles.h"
#include "tests/support/temp_dir.h"

namespace netgraph::auth::testing {

// Keys generated once per test run.
const EVP_PKEY* EcKey();       // P-256
const EVP_PKEY* OtherEcKey();  // P-256, unrelated to EcKey()
const EVP_PKEY* RsaKey();      // 2048 bits

PkeyHandle GenerateEcKey(const char* curve);
PkeyHandle GenerateRsaKey(unsigned int bits);

std::string PublicPem(const EVP_PKEY* key);
std::string PrivatePem(const EVP_PKEY* key);
std::string EncryptedPrivatePem(const EVP_PKEY* key, const std::string& passphrase);
// The public JWK of an EC (P-256 or P-384) or RSA key, with `kid` when given.
nlohmann::json PublicJwk(const EVP_PKEY* key, const std::optional<std::string>& kid);

std::string Base64UrlEncode(std::string_view bytes);

// How an ECDSA signature is laid out: JOSE's R || S (RFC 7518 §3.4) or OpenSSL's DER.
enum class EcdsaForm { kRawRS, kDer };

// A compact JWS of `header` and `payload` signed with SHA-256 by `key` (ECDSA or RSA PKCS#1 v1.5),
// whatever `header` claims the algorithm to be.
std::string SignJws(const nlohmann::json& header, const nlohmann::json& payload,
                    const EVP_PKEY* key, EcdsaForm form = EcdsaForm::kRawRS);
// A compact JWS whose signature is HMAC-SHA256 keyed with `secret`.
std::string SignHs256(const nlohmann::json& header, const nlohmann::json& payload,
                      std::string_view secret);
// True when the ES256 `token` (raw R || S signature) verifies under `key` with OpenSSL alone.
bool VerifiesAsEs256(const std::string& token, const EVP_PKEY* key);

// The test clock: 2023-11-14T22:13:20Z.
inline const std::chrono::system_clock::time_point kNow{std::chrono::seconds(1700000000)};
inline constexpr std::int64_t kNowSeconds = 1700000000;

// The scratch folders of the auth tests (tests/support/temp_dir.h).
using netgraph::testing::TempDir;

}  // namespace netgraph::auth::testing

#endif  // NETGRAPH_TESTS_UNIT_AUTH_TEST_CRYPTO_H_
