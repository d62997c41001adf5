#include "core/graphql/utilities/number_format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace netgraph::graphql {

std::string FormatJsNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return "0";

  // Shortest round-trip digits in scientific form: "d.ddde±x".
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value),
                                    std::chars_format::scientific);
  (void)error;
  std::string_view text(buffer, static_cast<std::size_t>(end - buffer));
  std::size_t e = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e)) {
    if (c != '.') digits += c;
  }
  const int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;  // the decimal point sits after n digits

  std::string result = value < 0 ? "-" : "";
  if (k <= n && n <= 21) {
    result += digits;
    result.append(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    result += digits.substr(0, static_cast<std::size_t>(n));
    result += '.';
    result += digits.substr(static_cast<std::size_t>(n));
  } else if (-6 < n && n <= 0) {
    result += "0.";
    result.append(static_cast<std::size_t>(-n), '0');
    result += digits;
  } else {
    result += digits[0];
    if (k > 1) {
      result += '.';
      result += digits.substr(1);
    }
    result += 'e';
    result += n - 1 >= 0 ? '+' : '-';
    result += std::to_string(std::abs(n - 1));
  }
  return result;
}

}  // namespace netgraph::graphql
