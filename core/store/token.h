// The token row, its investment rounds, and the investment figures computed from the vouchers.
#ifndef NETGRAPH_CORE_STORE_TOKEN_H_
#define NETGRAPH_CORE_STORE_TOKEN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

struct TokenRow {
  std::string name;
  std::string symbol;
  int decimals = 2;
};

Result<TokenRow> ReadToken(Connection& db);

struct RoundRow {
  std::int64_t id = 0;
  std::string name;
  double price = 0;   // quote currency per token unit
  double target = 0;  // quote currency
};

struct NewRound {
  std::string name;
  std::string price;     // decimal text, exact
  std::string target;    // decimal text, exact
  std::string opens_at;  // anything PostgreSQL reads as a timestamptz
  std::optional<std::string> closes_at;
};

// The open round that opened last, if any.
Result<std::optional<RoundRow>> CurrentRound(Connection& db);
Result<std::optional<RoundRow>> FindRound(Connection& db, std::string_view name);
Result<std::optional<RoundRow>> FindRoundById(Connection& db, std::int64_t id);
// Inserts the round unless one of that name exists; returns the stored round either way.
Result<RoundRow> EnsureRound(Connection& db, const NewRound& round);

struct InvestmentFigures {
  TokenRow token;
  std::optional<std::string> current_round;
  double round_raised = 0;  // Σ amount × price over the current round's claimed|redeemed vouchers
  double round_target = 0;  // 0 without a current round
  std::int64_t investor_count = 0;  // users with a claimed or redeemed voucher
  double current_price = 0;         // the current round's, else the last opened round's, else 0
  double market_cap = 0;            // current_price × redeemed supply
};

// All figures from one statement, so they agree with each other.
Result<InvestmentFigures> ReadInvestmentFigures(Connection& db);

struct UserInvestment {
  double total = 0;  // Σ amount × its round's price over the user's claimed|redeemed vouchers
  std::int64_t vouchers = 0;  // how many such vouchers
};

Result<UserInvestment> ReadUserInvestment(Connection& db, std::int64_t user_id);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_TOKEN_H_
