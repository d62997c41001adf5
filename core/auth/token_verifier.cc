#include "core/auth/token_verifier.h"

#include <jwt.h>
#include <openssl/err.h>
#include <strings.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "core/auth/internal/claims.h"
#include "core/auth/internal/jwks.h"
#include "core/auth/internal/libjwt_handles.h"
#include "core/auth/internal/verified_token_cache.h"
#include "core/crypto/base64.h"

namespace netgraph::auth {

namespace {

using nlohmann::json;

constexpr std::size_t kVerifiedTokenCacheCapacity = 256;

// RFC 7518 §3.4: an ES256 signature is R and S as 32-byte big-endian integers, not DER.
constexpr std::size_t kEs256SignatureBytes = 64;

struct CompactJws {
  std::string_view header;
  std::string_view payload;
  std::string_view signature;
};

Result<CompactJws> SplitCompact(std::string_view token) {
  std::size_t first = token.find('.');
  std::size_t second = first == std::string_view::npos ? first : token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
    return Status::Unauthenticated("token is not three dot-separated parts");
  }
  CompactJws parts{token.substr(0, first), token.substr(first + 1, second - first - 1),
                   token.substr(second + 1)};
  if (parts.header.empty() || parts.payload.empty()) {
    return Status::Unauthenticated("token has an empty header or payload");
  }
  if (parts.signature.empty()) return Status::Unauthenticated("token is unsigned");
  return parts;
}

Result<json> DecodeJsonObject(std::string_view part, const char* what) {
  Result<std::string> text = crypto::Base64UrlDecode(part);
  if (!text.ok())
    return Status::Unauthenticated(std::string("token ") + what + " is not base64url");
  json object = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded())
    return Status::Unauthenticated(std::string("token ") + what + " is not JSON");
  if (!object.is_object()) {
    return Status::Unauthenticated(std::string("token ") + what + " is not a JSON object");
  }
  return object;
}

// A header value fit for a log line: at most 40 printable ASCII characters.
std::string Printable(std::string_view untrusted) {
  std::string text(untrusted.substr(0, 40));
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c < 0x20 || c > 0x7e; }, '?');
  return untrusted.size() > text.size() ? text + "..." : text;
}

// The header's alg, which Verify compares with the pinned algorithm.
Result<std::string> HeaderAlgorithm(const json& header) {
  auto alg = header.find("alg");
  if (alg == header.end() || !alg->is_string())
    return Status::Unauthenticated("token header has no alg");
  return alg->get<std::string>();
}

// The header's other members.
Status CheckHeader(const json& header) {
  // libjwt 1.10.2 refuses any other typ too, e.g. RFC 9068's "at+jwt".
  if (auto typ = header.find("typ"); typ != header.end()) {
    if (!typ->is_string() || strcasecmp(typ->get_ref<const std::string&>().c_str(), "JWT") != 0) {
      return Status::Unauthenticated("token type " + Printable(typ->dump()) + " not accepted");
    }
  }
  // RFC 7515 §4.1.11: extensions listed in crit must be understood, and we understand none.
  if (header.contains("crit"))
    return Status::Unauthenticated("token header has crit, which is unsupported");
  if (header.contains("kid") && !header["kid"].is_string()) {
    return Status::Unauthenticated("token kid is not a string");
  }
  return Status::Ok();
}

Status CheckIssuerAndAudience(const AuthConfig& config) {
  if ((!config.issuer || !config.audience) && !config.allow_any_issuer_audience) {
    return Status::InvalidArgument(
        "set NETGRAPH_JWT_ISSUER and NETGRAPH_JWT_AUDIENCE to the identity provider's issuer and "
        "this service's audience (RFC 8725, sections 3.8 and 3.9), or "
        "NETGRAPH_JWT_ALLOW_ANY_ISSUER_AUDIENCE=on to accept tokens for any issuer and audience");
  }
  return Status::Ok();
}

}  // namespace

Result<TokenVerifier> TokenVerifier::Create(const AuthConfig& config) {
  if (!config.jwks_endpoint.url.empty()) {
    NETGRAPH_RETURN_IF_ERROR(CheckIssuerAndAudience(config));
    if (const std::string& ca = config.jwks_endpoint.ca_file; !ca.empty()) {
      if (Result<std::string> content = ReadKeyFile(ca); !content.ok()) {
        return Status::InvalidArgument("NETGRAPH_JWT_JWKS_CA_FILE " + ca + ": " +
                                       content.status().message());
      }
    }
    return TokenVerifier(config, {}, /*keys_from_jwks=*/true, std::make_shared<JwksKeySet>(config));
  }
  const bool from_jwks = !config.jwks_file.empty();
  const std::string& path = from_jwks ? config.jwks_file : config.public_key_file;
  const char* variable = from_jwks ? "NETGRAPH_JWT_JWKS_FILE" : "NETGRAPH_JWT_PUBLIC_KEY_FILE";
  auto failure = [&](const Status& status) {
    return Status::InvalidArgument(std::string(variable) + " " + path + ": " + status.message());
  };

  if (path.empty()) return Status::InvalidArgument(std::string(variable) + " is not set");
  NETGRAPH_RETURN_IF_ERROR(CheckIssuerAndAudience(config));
  Result<std::string> content = ReadKeyFile(path);
  if (!content.ok()) return failure(content.status());

  std::vector<VerificationKey> keys;
  if (from_jwks) {
    Result<std::vector<VerificationKey>> jwks =
        VerificationKeysFromJwks(*content, config.algorithm);
    if (!jwks.ok()) return failure(jwks.status());
    keys = std::move(jwks).value();
  } else {
    Result<VerificationKey> key = VerificationKeyFromPem(*content, config.algorithm);
    if (!key.ok()) return failure(key.status());
    keys.push_back(std::move(key).value());
  }
  return TokenVerifier(config, std::move(keys), from_jwks, nullptr);
}

TokenVerifier::TokenVerifier(AuthConfig config, std::vector<VerificationKey> keys,
                             bool keys_from_jwks, std::shared_ptr<JwksKeySet> remote)
    : config_(std::move(config)),
      keys_(std::make_shared<const std::vector<VerificationKey>>(std::move(keys))),
      keys_from_jwks_(keys_from_jwks),
      remote_(std::move(remote)),
      verified_(std::make_unique<VerifiedTokenCache>(kVerifiedTokenCacheCapacity)) {}

TokenVerifier::TokenVerifier(TokenVerifier&&) noexcept = default;
TokenVerifier& TokenVerifier::operator=(TokenVerifier&&) noexcept = default;
TokenVerifier::~TokenVerifier() = default;

JwksKeySet::Snapshot TokenVerifier::Keys() const {
  return remote_ ? remote_->Current() : JwksKeySet::Snapshot{keys_, 0};
}

Result<const VerificationKey*> TokenVerifier::SelectKey(
    const std::vector<VerificationKey>& keys, const std::optional<std::string>& kid) const {
  // A PEM file is one key, whatever kid the issuer stamps on its tokens.
  if (!keys_from_jwks_) return &keys.front();
  if (kid) {
    auto match = std::find_if(keys.begin(), keys.end(),
                              [&](const VerificationKey& key) { return key.kid == kid; });
    if (match == keys.end())
      return Status::Unauthenticated("unknown kid '" + Printable(*kid) + "'");
    return &*match;
  }
  if (keys.size() == 1) return &keys.front();
  return Status::Unauthenticated("token has no kid and the JWKS holds " +
                                 std::to_string(keys.size()) + " keys");
}

Verification Verification::Accepted(Identity identity) {
  return Verification{std::move(identity), std::nullopt};
}

Verification Verification::Refused(TokenRefusal refusal, std::string message) {
  return Verification{Status::Unauthenticated(std::move(message)), refusal};
}

Verification TokenVerifier::Verify(std::string_view token,
                                   std::chrono::system_clock::time_point now) const {
  auto refuse = [](TokenRefusal refusal, const Status& status) {
    return Verification::Refused(refusal, status.message());
  };
  if (token.size() > static_cast<std::size_t>(config_.max_token_bytes)) {
    return Verification::Refused(TokenRefusal::kMalformed,
                                 "token is " + std::to_string(token.size()) + " bytes, over the " +
                                     std::to_string(config_.max_token_bytes) + "-byte limit");
  }
  JwksKeySet::Snapshot keys = Keys();
  if (!keys.keys) {
    return Verification::Refused(TokenRefusal::kUnknownKey,
                                 "no key set fetched yet from " + remote_->url());
  }
  if (std::optional<json> claims = verified_->Find(token, keys.generation)) {
    return IdentityFromClaims(*claims, config_, now);
  }
  Result<CompactJws> parts = SplitCompact(token);
  if (!parts.ok()) return refuse(TokenRefusal::kMalformed, parts.status());

  Result<json> header = DecodeJsonObject(parts->header, "header");
  if (!header.ok()) return refuse(TokenRefusal::kMalformed, header.status());
  Result<std::string> algorithm = HeaderAlgorithm(*header);
  if (!algorithm.ok()) return refuse(TokenRefusal::kMalformed, algorithm.status());
  if (*algorithm != AlgorithmName(config_.algorithm)) {
    return Verification::Refused(TokenRefusal::kAlgorithm,
                                 "algorithm " + Printable(*algorithm) + " not allowed");
  }
  if (Status checked = CheckHeader(*header); !checked.ok()) {
    return refuse(TokenRefusal::kMalformed, checked);
  }

  std::optional<std::string> kid;
  if (auto it = header->find("kid"); it != header->end()) kid = it->get<std::string>();
  Result<const VerificationKey*> selected = SelectKey(*keys.keys, kid);
  if (!selected.ok()) {
    // The provider may have published a new key since the last fetch: its owner fetches again (as
    // early as the rate limit allows) while this token is refused.
    if (kid && remote_) remote_->NoteUnknownKid();
    return refuse(TokenRefusal::kUnknownKey, selected.status());
  }
  const VerificationKey* key = *selected;

  Result<json> claims = DecodeJsonObject(parts->payload, "payload");
  if (!claims.ok()) return refuse(TokenRefusal::kMalformed, claims.status());

  Result<std::string> signature = crypto::Base64UrlDecode(parts->signature);
  if (!signature.ok()) {
    return Verification::Refused(TokenRefusal::kMalformed, "token signature is not base64url");
  }
  if (config_.algorithm == JwtAlgorithm::kES256 && signature->size() != kEs256SignatureBytes) {
    return Verification::Refused(
        TokenRefusal::kMalformed,
        "ES256 signature is " + std::to_string(signature->size()) + " bytes, not 64 (R || S)");
  }

  const std::string& pem = key->public_key_pem;
  const std::string terminated(token);
  jwt_t* raw = nullptr;
  int error =
      jwt_decode(&raw, terminated.c_str(), reinterpret_cast<const unsigned char*>(pem.data()),
                 static_cast<int>(pem.size()));
  JwtHandle decoded(raw);
  if (error != 0) {
    ERR_clear_error();  // libjwt leaves OpenSSL's reasons queued on this thread
    return Verification::Refused(TokenRefusal::kSignature, "signature verification failed");
  }
  // Defence in depth: libjwt chose the algorithm from the header it parsed itself.
  if (jwt_get_alg(decoded.get()) != LibJwtAlgorithm(config_.algorithm)) {
    const char* used = jwt_alg_str(jwt_get_alg(decoded.get()));
    return Verification::Refused(TokenRefusal::kAlgorithm, std::string("algorithm ") +
                                                               (used != nullptr ? used : "?") +
                                                               " not allowed (seen by libjwt)");
  }
  // The claims come from our strict decoding of the payload, the very text the signature covers.
  verified_->Insert(token, *claims, keys.generation);
  return IdentityFromClaims(*claims, config_, now);
}

}  // namespace netgraph::auth
