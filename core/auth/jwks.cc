#include "core/auth/internal/jwks.h"

#include <openssl/core_names.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/auth/internal/openssl_handles.h"
#include "core/crypto/base64.h"

namespace netgraph::auth {

namespace {

using nlohmann::json;

constexpr std::size_t kP256CoordinateBytes = 32;

// The member `name` of `jwk` when it is a string.
std::optional<std::string> StringMember(const json& jwk, const char* name) {
  auto it = jwk.find(name);
  if (it == jwk.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

bool SuitsAlgorithm(const json& jwk, JwtAlgorithm algorithm) {
  std::optional<std::string> kty = StringMember(jwk, "kty");
  bool type_fits = algorithm == JwtAlgorithm::kES256
                       ? kty == "EC" && StringMember(jwk, "crv") == "P-256"
                       : kty == "RSA";
  if (!type_fits) return false;
  if (jwk.contains("alg") && StringMember(jwk, "alg") != AlgorithmName(algorithm)) return false;
  if (jwk.contains("use") && StringMember(jwk, "use") != "sig") return false;
  if (auto ops = jwk.find("key_ops"); ops != jwk.end()) {
    return ops->is_array() && std::find(ops->begin(), ops->end(), "verify") != ops->end();
  }
  return true;
}

// The decoded base64url member `name`, required.
Result<std::string> BinaryMember(const json& jwk, const char* name) {
  std::optional<std::string> text = StringMember(jwk, name);
  // A missing member decodes as empty, which is refused too.
  Result<std::string> bytes = crypto::Base64UrlDecode(text.value_or(""));
  if (!bytes.ok() || bytes->empty()) {
    return Status::InvalidArgument(std::string("member ") + name + " is not a base64url string");
  }
  return std::move(bytes).value();
}

Result<PkeyHandle> PublicKeyFromParams(const char* key_type, OSSL_PARAM_BLD* builder) {
  ParamsHandle params(OSSL_PARAM_BLD_to_param(builder));
  PkeyContextHandle context(EVP_PKEY_CTX_new_from_name(nullptr, key_type, nullptr));
  EVP_PKEY* raw = nullptr;
  if (!params || !context || EVP_PKEY_fromdata_init(context.get()) != 1 ||
      EVP_PKEY_fromdata(context.get(), &raw, EVP_PKEY_PUBLIC_KEY, params.get()) != 1) {
    return Status::InvalidArgument("OpenSSL rejects the key: " + TakeOpenSslError());
  }
  PkeyHandle key(raw);
  PkeyContextHandle check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  if (!check || EVP_PKEY_public_check(check.get()) != 1) {
    return Status::InvalidArgument("not a valid public key: " + TakeOpenSslError());
  }
  return key;
}

Result<PkeyHandle> EcPublicKey(const json& jwk) {
  NETGRAPH_ASSIGN_OR_RETURN(std::string x, BinaryMember(jwk, "x"));
  NETGRAPH_ASSIGN_OR_RETURN(std::string y, BinaryMember(jwk, "y"));
  // RFC 7518 §6.2.1.2: coordinates are the full size of the field, leading zeros included.
  if (x.size() != kP256CoordinateBytes || y.size() != kP256CoordinateBytes) {
    return Status::InvalidArgument("P-256 coordinates x and y must be 32 bytes each");
  }
  std::string point = "\x04" + x + y;  // uncompressed SEC1 point
  ParamBuilderHandle builder(OSSL_PARAM_BLD_new());
  if (!builder ||
      OSSL_PARAM_BLD_push_utf8_string(builder.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) !=
          1 ||
      OSSL_PARAM_BLD_push_octet_string(builder.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(),
                                       point.size()) != 1) {
    return Status::Internal("out of memory building an EC key");
  }
  return PublicKeyFromParams("EC", builder.get());
}

Result<PkeyHandle> RsaPublicKey(const json& jwk) {
  NETGRAPH_ASSIGN_OR_RETURN(std::string n, BinaryMember(jwk, "n"));
  NETGRAPH_ASSIGN_OR_RETURN(std::string e, BinaryMember(jwk, "e"));
  auto to_bignum = [](const std::string& bytes) {
    return BignumHandle(BN_bin2bn(reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<int>(bytes.size()), nullptr));
  };
  BignumHandle modulus = to_bignum(n);
  BignumHandle exponent = to_bignum(e);
  ParamBuilderHandle builder(OSSL_PARAM_BLD_new());
  if (!modulus || !exponent || !builder ||
      OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_N, modulus.get()) != 1 ||
      OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_E, exponent.get()) != 1) {
    return Status::Internal("out of memory building an RSA key");
  }
  return PublicKeyFromParams("RSA", builder.get());
}

Result<VerificationKey> KeyFromJwk(const json& jwk, JwtAlgorithm algorithm) {
  NETGRAPH_ASSIGN_OR_RETURN(
      PkeyHandle key, algorithm == JwtAlgorithm::kES256 ? EcPublicKey(jwk) : RsaPublicKey(jwk));
  NETGRAPH_RETURN_IF_ERROR(CheckKeyFitsAlgorithm(key.get(), algorithm));
  NETGRAPH_ASSIGN_OR_RETURN(std::string pem, PublicKeyPem(key.get()));
  return VerificationKey{StringMember(jwk, "kid"), std::move(pem)};
}

}  // namespace

Result<std::vector<VerificationKey>> VerificationKeysFromJwks(std::string_view jwks_json,
                                                              JwtAlgorithm algorithm) {
  json jwks = json::parse(jwks_json, nullptr, /*allow_exceptions=*/false);
  if (jwks.is_discarded()) return Status::InvalidArgument("JWKS is not valid JSON");
  auto entries = jwks.is_object() ? jwks.find("keys") : jwks.end();
  if (entries == jwks.end() || !entries->is_array()) {
    return Status::InvalidArgument("JWKS is not an object with a \"keys\" array");
  }

  std::vector<VerificationKey> keys;
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const json& jwk = (*entries)[i];
    std::string label = "JWKS keys[" + std::to_string(i) + "]";
    if (!jwk.is_object()) return Status::InvalidArgument(label + " is not an object");
    if (jwk.contains("kid") && !jwk["kid"].is_string()) {
      return Status::InvalidArgument(label + ": kid is not a string");
    }
    if (!SuitsAlgorithm(jwk, algorithm)) continue;

    Result<VerificationKey> key = KeyFromJwk(jwk, algorithm);
    if (!key.ok()) return key.status().WithContext(label);
    if (key->kid && std::any_of(keys.begin(), keys.end(), [&](const VerificationKey& other) {
          return other.kid == key->kid;
        })) {
      return Status::InvalidArgument(label + ": kid '" + *key->kid + "' appears twice");
    }
    keys.push_back(std::move(key).value());
  }
  if (keys.empty()) {
    return Status::InvalidArgument("JWKS has no key for " + std::string(AlgorithmName(algorithm)));
  }
  return keys;
}

}  // namespace netgraph::auth
