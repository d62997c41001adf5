#include "core/auth/token_refusal.h"

#include <cstddef>

#include "core/telemetry.h"

namespace netgraph::auth {
namespace {

constexpr std::string_view kFamily = "netgraph_jwt_refusals_total";
constexpr std::string_view kHelp = "Bearer tokens refused, by reason.";

// Each reason's name and sample labels, in the order of TokenRefusal.
struct Reason {
  std::string_view name;
  std::string_view labels;
};
constexpr Reason kReasons[] = {
    {"malformed", R"(reason="malformed")"},     {"algorithm", R"(reason="algorithm")"},
    {"unknown_key", R"(reason="unknown_key")"}, {"signature", R"(reason="signature")"},
    {"expired", R"(reason="expired")"},         {"not_yet_valid", R"(reason="not_yet_valid")"},
    {"claims", R"(reason="claims")"},
};

telemetry::Counter RefusalCounter(TokenRefusal refusal) {
  return telemetry::Counter({kFamily, telemetry::MetricType::kCounter, kHelp,
                             kReasons[static_cast<std::size_t>(refusal)].labels});
}

// In the order of TokenRefusal.
const telemetry::Counter kRefusals[] = {
    RefusalCounter(TokenRefusal::kMalformed),  RefusalCounter(TokenRefusal::kAlgorithm),
    RefusalCounter(TokenRefusal::kUnknownKey), RefusalCounter(TokenRefusal::kSignature),
    RefusalCounter(TokenRefusal::kExpired),    RefusalCounter(TokenRefusal::kNotYetValid),
    RefusalCounter(TokenRefusal::kClaims),
};

}  // namespace

std::string_view TokenRefusalName(TokenRefusal refusal) {
  return kReasons[static_cast<std::size_t>(refusal)].name;
}

void CountRefusal(TokenRefusal refusal) { kRefusals[static_cast<std::size_t>(refusal)].Add(); }

std::uint64_t RefusalsCounted(TokenRefusal refusal) {
  return kRefusals[static_cast<std::size_t>(refusal)].Read();
}

}  // namespace netgraph::auth
