// A user's portfolio (getUserPortfolio) and the public investment figures (investmentData).
#ifndef NETGRAPH_CORE_DOMAIN_PORTFOLIO_H_
#define NETGRAPH_CORE_DOMAIN_PORTFOLIO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/domain/date_time.h"
#include "core/domain/user.h"
#include "core/domain/voucher.h"
#include "core/status.h"
#include "core/store/connection.h"
#include "core/store/token.h"

namespace netgraph::domain {

struct Portfolio {
  User user;
  std::vector<std::string> wallets;
  std::vector<Voucher> vouchers;  // all of the user's vouchers, newest claim first
  // The user's most recently credited confidential token account, when there is one.
  std::optional<std::string> encrypted_balance;
  std::optional<std::string> confidential_public_key;
  std::optional<std::string> token_account;
  double total_investments = 0;     // Σ amount × price over claimed and redeemed vouchers
  std::int64_t total_vouchers = 0;  // how many claimed and redeemed vouchers
  bool has_confidential_balance = false;
  // When the portfolio next changes by time alone: the earliest expiry of a claim still open.
  std::optional<Timestamp> next_change;
};

// Read from one snapshot, `user`'s stored email included (it may have changed since `user` was
// read).
Result<Portfolio> ReadPortfolio(store::Connection& db, const User& user);

using InvestmentData = store::InvestmentFigures;

Result<InvestmentData> ReadInvestmentData(store::Connection& db);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_PORTFOLIO_H_
