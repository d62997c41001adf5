#include "tests/unit/auth/test_crypto.h"

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace netgraph::auth::testing {

namespace {

void Require(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string(what) + ": " + TakeOpenSslError());
}

std::string BioText(BIO* bio) {
  char* data = nullptr;
  long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(size));
}

std::string BignumParam(const EVP_PKEY* key, const char* name, int width) {
  BIGNUM* raw = nullptr;
  Require(EVP_PKEY_get_bn_param(key, name, &raw) == 1, name);
  BignumHandle value(raw);
  std::string bytes(static_cast<std::size_t>(width > 0 ? width : BN_num_bytes(value.get())), '\0');
  Require(BN_bn2binpad(value.get(), reinterpret_cast<unsigned char*>(bytes.data()),
                       static_cast<int>(bytes.size())) >= 0,
          "BN_bn2binpad");
  return bytes;
}

std::string SigningInput(const nlohmann::json& header, const nlohmann::json& payload) {
  return Base64UrlEncode(header.dump()) + "." + Base64UrlEncode(payload.dump());
}

// DER ECDSA-Sig-Value -> 64-byte R || S.
std::string DerToRawRS(const std::string& der) {
  const auto* p = reinterpret_cast<const unsigned char*>(der.data());
  ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size()));
  Require(sig != nullptr, "d2i_ECDSA_SIG");
  std::string raw(64, '\0');
  auto* out = reinterpret_cast<unsigned char*>(raw.data());
  BN_bn2binpad(ECDSA_SIG_get0_r(sig), out, 32);
  BN_bn2binpad(ECDSA_SIG_get0_s(sig), out + 32, 32);
  ECDSA_SIG_free(sig);
  return raw;
}

std::string RawRSToDer(const std::string& raw) {
  ECDSA_SIG* sig = ECDSA_SIG_new();
  const auto* in = reinterpret_cast<const unsigned char*>(raw.data());
  ECDSA_SIG_set0(sig, BN_bin2bn(in, 32, nullptr), BN_bin2bn(in + 32, 32, nullptr));
  unsigned char* der = nullptr;
  int size = i2d_ECDSA_SIG(sig, &der);
  std::string result(reinterpret_cast<char*>(der), static_cast<std::size_t>(size));
  OPENSSL_free(der);
  ECDSA_SIG_free(sig);
  return result;
}

std::optional<std::string> Base64UrlDecodeForTest(std::string text) {
  for (char& c : text) c = c == '-' ? '+' : c == '_' ? '/' : c;
  while (text.size() % 4 != 0) text.push_back('=');
  std::string bytes(text.size() / 4 * 3, '\0');
  int size = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(bytes.data()),
                             reinterpret_cast<const unsigned char*>(text.data()),
                             static_cast<int>(text.size()));
  if (size < 0) return std::nullopt;
  bytes.resize(static_cast<std::size_t>(size) - (text.size() - text.find_last_not_of('=') - 1));
  return bytes;
}

}  // namespace

const EVP_PKEY* EcKey() {
  static PkeyHandle key = GenerateEcKey("P-256");
  return key.get();
}
const EVP_PKEY* OtherEcKey() {
  static PkeyHandle key = GenerateEcKey("P-256");
  return key.get();
}
const EVP_PKEY* RsaKey() {
  static PkeyHandle key = GenerateRsaKey(2048);
  return key.get();
}

PkeyHandle GenerateEcKey(const char* curve) {
  PkeyHandle key(EVP_EC_gen(curve));
  Require(key != nullptr, "EVP_EC_gen");
  return key;
}

PkeyHandle GenerateRsaKey(unsigned int bits) {
  PkeyHandle key(EVP_RSA_gen(bits));
  Require(key != nullptr, "EVP_RSA_gen");
  return key;
}

std::string PublicPem(const EVP_PKEY* key) {
  BioHandle bio(BIO_new(BIO_s_mem()));
  Require(PEM_write_bio_PUBKEY(bio.get(), key) == 1, "PEM_write_bio_PUBKEY");
  return BioText(bio.get());
}

std::string PrivatePem(const EVP_PKEY* key) {
  BioHandle bio(BIO_new(BIO_s_mem()));
  Require(PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) == 1,
          "PEM_write_bio_PrivateKey");
  return BioText(bio.get());
}

std::string EncryptedPrivatePem(const EVP_PKEY* key, const std::string& passphrase) {
  BioHandle bio(BIO_new(BIO_s_mem()));
  Require(PEM_write_bio_PKCS8PrivateKey(bio.get(), key, EVP_aes_256_cbc(), passphrase.data(),
                                        static_cast<int>(passphrase.size()), nullptr, nullptr) == 1,
          "PEM_write_bio_PKCS8PrivateKey");
  return BioText(bio.get());
}

nlohmann::json PublicJwk(const EVP_PKEY* key, const std::optional<std::string>& kid) {
  nlohmann::json jwk;
  if (EVP_PKEY_is_a(key, "EC")) {
    char group[64];
    Require(EVP_PKEY_get_group_name(key, group, sizeof group, nullptr) == 1, "group name");
    int width = (EVP_PKEY_get_bits(key) + 7) / 8;
    jwk = {{"kty", "EC"},
           {"crv", std::string(group) == "prime256v1" ? "P-256" : "P-384"},
           {"x", Base64UrlEncode(BignumParam(key, OSSL_PKEY_PARAM_EC_PUB_X, width))},
           {"y", Base64UrlEncode(BignumParam(key, OSSL_PKEY_PARAM_EC_PUB_Y, width))}};
  } else {
    jwk = {{"kty", "RSA"},
           {"n", Base64UrlEncode(BignumParam(key, OSSL_PKEY_PARAM_RSA_N, 0))},
           {"e", Base64UrlEncode(BignumParam(key, OSSL_PKEY_PARAM_RSA_E, 0))}};
  }
  if (kid) jwk["kid"] = *kid;
  return jwk;
}

std::string Base64UrlEncode(std::string_view bytes) {
  std::string text(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int size = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.data()),
                             reinterpret_cast<const unsigned char*>(bytes.data()),
                             static_cast<int>(bytes.size()));
  text.resize(static_cast<std::size_t>(size));
  while (!text.empty() && text.back() == '=') text.pop_back();
  for (char& c : text) c = c == '+' ? '-' : c == '/' ? '_' : c;
  return text;
}

std::string SignJws(const nlohmann::json& header, const nlohmann::json& payload,
                    const EVP_PKEY* key, EcdsaForm form) {
  std::string input = SigningInput(header, payload);
  std::unique_ptr<EVP_MD_CTX, OpenSslDeleter<EVP_MD_CTX, EVP_MD_CTX_free>> context(
      EVP_MD_CTX_new());
  std::size_t size = 0;
  Require(EVP_DigestSignInit(context.get(), nullptr, EVP_sha256(), nullptr,
                             const_cast<EVP_PKEY*>(key)) == 1,
          "EVP_DigestSignInit");
  Require(EVP_DigestSign(context.get(), nullptr, &size,
                         reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1,
          "EVP_DigestSign");
  std::string signature(size, '\0');
  Require(EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &size,
                         reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1,
          "EVP_DigestSign");
  signature.resize(size);
  if (EVP_PKEY_is_a(key, "EC") && form == EcdsaForm::kRawRS) signature = DerToRawRS(signature);
  return input + "." + Base64UrlEncode(signature);
}

std::string SignHs256(const nlohmann::json& header, const nlohmann::json& payload,
                      std::string_view secret) {
  std::string input = SigningInput(header, payload);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  Require(HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
               reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac,
               &size) != nullptr,
          "HMAC");
  return input + "." + Base64UrlEncode(std::string_view(reinterpret_cast<char*>(mac), size));
}

bool VerifiesAsEs256(const std::string& token, const EVP_PKEY* key) {
  std::size_t dot = token.rfind('.');
  std::optional<std::string> raw = Base64UrlDecodeForTest(token.substr(dot + 1));
  if (!raw || raw->size() != 64) return false;
  std::string der = RawRSToDer(*raw);
  std::unique_ptr<EVP_MD_CTX, OpenSslDeleter<EVP_MD_CTX, EVP_MD_CTX_free>> context(
      EVP_MD_CTX_new());
  Require(EVP_DigestVerifyInit(context.get(), nullptr, EVP_sha256(), nullptr,
                               const_cast<EVP_PKEY*>(key)) == 1,
          "EVP_DigestVerifyInit");
  return EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(der.data()),
                          der.size(), reinterpret_cast<const unsigned char*>(token.data()),
                          dot) == 1;
}

}  // namespace netgraph::auth::testing
