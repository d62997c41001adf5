#include "core/auth/internal/claims.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

namespace netgraph::auth {

namespace {

using nlohmann::json;

// 9999-12-31T23:59:59Z. Dates beyond it are malformed, which keeps `date ± leeway` far from
// overflow.
constexpr std::int64_t kLatestNumericDate = 253402300799;

const json* Claim(const json& claims, const char* name) {
  auto it = claims.find(name);
  return it == claims.end() ? nullptr : &*it;
}

// A NumericDate in whole seconds, or nullopt when `value` is not a number in
// [0, kLatestNumericDate]. RFC 7519 allows fractions; `round_up` says which way is stricter.
std::optional<std::int64_t> WholeSeconds(const json& value, bool round_up) {
  if (value.is_number_unsigned()) {
    auto seconds = value.get<std::uint64_t>();
    if (seconds > static_cast<std::uint64_t>(kLatestNumericDate)) return std::nullopt;
    return static_cast<std::int64_t>(seconds);
  }
  if (value.is_number_integer()) {
    auto seconds = value.get<std::int64_t>();
    if (seconds < 0 || seconds > kLatestNumericDate) return std::nullopt;
    return seconds;
  }
  if (value.is_number_float()) {
    double seconds = value.get<double>();
    if (!std::isfinite(seconds) || seconds < 0 || seconds > kLatestNumericDate) return std::nullopt;
    return static_cast<std::int64_t>(round_up ? std::ceil(seconds) : std::floor(seconds));
  }
  return std::nullopt;
}

// The date claim `name`: nullopt when absent, an error when present but not a NumericDate.
Result<std::optional<std::int64_t>> DateClaim(const json& claims, const char* name, bool round_up) {
  const json* value = Claim(claims, name);
  if (value == nullptr) return std::optional<std::int64_t>();
  std::optional<std::int64_t> seconds = WholeSeconds(*value, round_up);
  if (!seconds)
    return Status::Unauthenticated(std::string("claim ") + name + " is not a NumericDate");
  return seconds;
}

// True when `claim` is `value`, or an array holding it (the forms of aud and of role claims).
bool EqualsOrContains(const json* claim, const std::string& value) {
  if (claim == nullptr) return false;
  if (claim->is_array()) return std::find(claim->begin(), claim->end(), value) != claim->end();
  return claim->is_string() && claim->get_ref<const std::string&>() == value;
}

std::string Timing(std::int64_t now, std::int64_t leeway) {
  return "now " + std::to_string(now) + ", leeway " + std::to_string(leeway) + " s";
}

}  // namespace

Verification IdentityFromClaims(const json& claims, const AuthConfig& config,
                                std::chrono::system_clock::time_point now) {
  const std::int64_t now_seconds =
      std::chrono::floor<std::chrono::seconds>(now.time_since_epoch()).count();
  const std::int64_t leeway = config.leeway_seconds;
  auto refuse = [](TokenRefusal refusal, std::string message) {
    return Verification::Refused(refusal, std::move(message));
  };
  auto malformed_date = [&](const Status& status) {
    return refuse(TokenRefusal::kClaims, status.message());
  };

  Result<std::optional<std::int64_t>> exp = DateClaim(claims, "exp", /*round_up=*/false);
  if (!exp.ok()) return malformed_date(exp.status());
  if (!*exp) return refuse(TokenRefusal::kClaims, "token has no exp claim");
  if (now_seconds >= **exp + leeway) {
    return refuse(TokenRefusal::kExpired, "token expired at " + std::to_string(**exp) + " (" +
                                              Timing(now_seconds, leeway) + ")");
  }

  Result<std::optional<std::int64_t>> nbf = DateClaim(claims, "nbf", /*round_up=*/true);
  if (!nbf.ok()) return malformed_date(nbf.status());
  if (*nbf && now_seconds < **nbf - leeway) {
    return refuse(TokenRefusal::kNotYetValid, "token not valid before " + std::to_string(**nbf) +
                                                  " (" + Timing(now_seconds, leeway) + ")");
  }

  Result<std::optional<std::int64_t>> iat = DateClaim(claims, "iat", /*round_up=*/true);
  if (!iat.ok()) return malformed_date(iat.status());
  if (*iat && **iat > now_seconds + leeway) {
    return refuse(TokenRefusal::kNotYetValid, "token issued in the future at " +
                                                  std::to_string(**iat) + " (" +
                                                  Timing(now_seconds, leeway) + ")");
  }

  if (config.issuer) {
    const json* iss = Claim(claims, "iss");
    if (iss == nullptr) return refuse(TokenRefusal::kClaims, "token has no iss claim");
    if (!iss->is_string() || iss->get_ref<const std::string&>() != *config.issuer) {
      return refuse(TokenRefusal::kClaims, "token issuer is not NETGRAPH_JWT_ISSUER");
    }
  }

  if (config.audience) {
    const json* aud = Claim(claims, "aud");
    if (aud == nullptr) return refuse(TokenRefusal::kClaims, "token has no aud claim");
    if (!EqualsOrContains(aud, *config.audience)) {
      return refuse(TokenRefusal::kClaims, "token audience does not include NETGRAPH_JWT_AUDIENCE");
    }
  }

  const json* sub = Claim(claims, "sub");
  if (sub == nullptr) return refuse(TokenRefusal::kClaims, "token has no sub claim");
  if (!sub->is_string()) return refuse(TokenRefusal::kClaims, "claim sub is not a string");
  if (sub->get_ref<const std::string&>().empty()) {
    return refuse(TokenRefusal::kClaims, "claim sub is empty");
  }

  Identity identity;
  identity.subject = sub->get<std::string>();
  if (const json* email = Claim(claims, "email"); email != nullptr && email->is_string()) {
    identity.email = email->get<std::string>();
  }
  if (config.admin_role_claim) {
    identity.is_admin_by_claim = EqualsOrContains(
        Claim(claims, config.admin_role_claim->name.c_str()), config.admin_role_claim->value);
  }
  identity.expires_at = std::chrono::system_clock::time_point(std::chrono::seconds(**exp));
  return Verification::Accepted(std::move(identity));
}

}  // namespace netgraph::auth
