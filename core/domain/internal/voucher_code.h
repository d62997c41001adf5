// Voucher codes: 20 characters of Crockford's base32 (0-9, A-Z without I, L, O, U), 100 random
// bits, shown in groups of four: "7KQ2-M9XD-RT4B-PW0C-HN3F". People type them, so a code is
// compared in normalised form: upper case, hyphens and spaces removed, and Crockford's look-alikes
// read as the digit they resemble (O as 0; I and L as 1).
#ifndef NETGRAPH_CORE_DOMAIN_INTERNAL_VOUCHER_CODE_H_
#define NETGRAPH_CORE_DOMAIN_INTERNAL_VOUCHER_CODE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"

namespace netgraph::domain {

inline constexpr std::size_t kVoucherCodeLength = 20;

// The normalised code, or nullopt when `input` is not a code (wrong length, other characters).
std::optional<std::string> NormalizeVoucherCode(std::string_view input);

// The grouped display form of a normalised code.
std::string FormatVoucherCode(std::string_view normalized);

// A fresh normalised code from the operating system's CSPRNG.
Result<std::string> GenerateVoucherCode();

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_INTERNAL_VOUCHER_CODE_H_
