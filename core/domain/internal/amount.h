// Token amounts: the API speaks token units (a Float), the store keeps integer base units, with
// 10^decimals base units per token (the token's `decimals`, 0..9).
#ifndef NETGRAPH_CORE_DOMAIN_INTERNAL_AMOUNT_H_
#define NETGRAPH_CORE_DOMAIN_INTERNAL_AMOUNT_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace netgraph::domain {

inline constexpr int kMaxDecimals = 9;
// Confidential balances stay below 2^32 base units: standard decryptors solve the discrete log
// only that far.
inline constexpr std::int64_t kBalanceLimit = std::int64_t{1} << 32;

// 10^decimals.
std::int64_t BaseUnitsPerToken(int decimals);

double ToTokenUnits(std::int64_t base_units, int decimals);

// Parses a decimal amount of token units ("12", "12.5", "0.01") exactly into base units. Nullopt
// when it is not a plain non-negative decimal, has more fraction digits than `decimals`, or does
// not fit below kBalanceLimit.
std::optional<std::int64_t> ParseTokenAmount(std::string_view text, int decimals);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_INTERNAL_AMOUNT_H_
