// The operators' voucher operations: issuing, listing (allVouchers, netgraphctl vouchers list) and
// revoking.
#ifndef NETGRAPH_CORE_DOMAIN_VOUCHER_ADMIN_H_
#define NETGRAPH_CORE_DOMAIN_VOUCHER_ADMIN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/domain/failure.h"
#include "core/domain/voucher.h"
#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::domain {

inline constexpr std::int64_t kDefaultVoucherPage = 100;
inline constexpr std::int64_t kMaxVoucherPage = 1000;
inline constexpr std::int64_t kMaxVouchersPerIssue = 10000;

struct IssueRequest {
  std::string amount;  // token units, decimal text ("25", "12.50")
  std::int64_t count = 1;
  std::optional<std::string> round;  // a round's name; default: the current round
  // When the vouchers expire: an RFC 3339 instant, or a duration from now ("90s", "30m", "12h",
  // "7d"); none by default.
  std::optional<std::string> expires;
  std::optional<std::string> batch;  // a tag, e.g. "demo"
};

// Issues `count` vouchers with fresh codes in one transaction.
Result<std::vector<Voucher>> IssueVouchers(store::Connection& db, const IssueRequest& request);

bool IsValidVoucherPage(std::int64_t first);
// A voucher id as the API writes it (the ID scalar); nullopt when `text` is not one.
std::optional<std::int64_t> ParseVoucherId(std::string_view text);

// A keyset page of all vouchers, by id: those after `after_id` (0 from the start), optionally only
// those in `status`.
Result<std::vector<Voucher>> ListVouchers(store::Connection& db, std::optional<VoucherState> status,
                                          std::int64_t first, std::int64_t after_id);

// AVAILABLE|CLAIMED -> REVOKED. Refusals: kInvalidVoucherCode; kVoucherNotFound (no such code);
// kVoucherExpired, kVoucherRevoked, kVoucherAlreadyClaimed (redeemed: too late) when its state
// does not allow it.
Outcome<Voucher> RevokeVoucher(store::Connection& db, std::string_view code);

// Stores EXPIRED on the vouchers whose expiry has passed (readers see them as expired already);
// returns how many. The outbox relay runs it now and then.
Result<std::int64_t> ExpireDueVouchers(store::Connection& db);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_VOUCHER_ADMIN_H_
