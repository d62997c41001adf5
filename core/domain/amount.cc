#include "core/domain/internal/amount.h"

namespace netgraph::domain {

std::int64_t BaseUnitsPerToken(int decimals) {
  std::int64_t factor = 1;
  for (int i = 0; i < decimals; ++i) factor *= 10;
  return factor;
}

double ToTokenUnits(std::int64_t base_units, int decimals) {
  return static_cast<double>(base_units) / static_cast<double>(BaseUnitsPerToken(decimals));
}

std::optional<std::int64_t> ParseTokenAmount(std::string_view text, int decimals) {
  if (decimals < 0 || decimals > kMaxDecimals || text.empty()) return std::nullopt;
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  if (whole.empty() || (dot != std::string_view::npos && fraction.empty())) return std::nullopt;
  if (fraction.size() > static_cast<std::size_t>(decimals)) return std::nullopt;
  std::int64_t value = 0;
  auto append = [&value](char c) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
    return value < kBalanceLimit;  // also keeps the arithmetic far from overflow
  };
  for (char c : whole) {
    if (!append(c)) return std::nullopt;
  }
  for (int i = 0; i < decimals; ++i) {
    if (!append(static_cast<std::size_t>(i) < fraction.size()
                    ? fraction[static_cast<std::size_t>(i)]
                    : '0')) {
      return std::nullopt;
    }
  }
  return value;
}

}  // namespace netgraph::domain
