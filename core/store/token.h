// The token row, its investment rounds, and the investment figures computed from the vouchers.
#ifndef NETGRAPH_CORE_STORE_TOKEN_H_
#define NETGRAPH_CORE_STORE_TOKEN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

// The channel notified at commit by every transaction that changes what investmentData shows:
// vouchers that were or become claimed or redeemed, rounds, the token row (migration 0003's
// triggers). Graph changes notify the outbox's channel (core/store/outbox.h).
inline constexpr const char* kInvestmentNotifyChannel = "netgraph_data";

struct TokenRow {
  std::string name;
  std::string symbol;
  int decimals = 2;
};

Result<TokenRow> ReadToken(Connection& db);
// The token in the first row of `rows`, whose columns name, symbol and decimals start at `first`:
// for statements that return the token beside other columns.
TokenRow TokenFromColumns(const Rows& rows, int first = 0);

// Replaces the token row. Returns nullopt, changing nothing, when `token` changes the decimals and
// a voucher exists: amounts are stored in base units, which the decimals give their meaning.
Result<std::optional<TokenRow>> UpdateToken(Connection& db, const TokenRow& token);

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
// Inserts the round unless one of that name exists; returns the stored round either way.
Result<RoundRow> EnsureRound(Connection& db, const NewRound& round);

// A round with its schedule, as `netgraphctl rounds list` shows it.
struct RoundSchedule {
  RoundRow round;
  std::string price;  // exact decimal text
  std::string target;
  std::int64_t opens_at_us = 0;  // microseconds since the Unix epoch
  std::optional<std::int64_t> closes_at_us;
  bool current = false;  // the round investmentData shows (CurrentRound)
};

// Every round, by opening time.
Result<std::vector<RoundSchedule>> ListRounds(Connection& db);

// Sets the round's closing time to `closes_at` (anything PostgreSQL reads as a timestamptz) when it
// is open then: it has opened by then and closes later or never. Returns the round, or nullopt
// when no round of that name is open at that time.
Result<std::optional<RoundRow>> CloseRound(Connection& db, std::string_view name,
                                           const std::string& closes_at);

struct InvestmentFigures {
  TokenRow token;
  std::optional<std::string> current_round;
  double round_raised = 0;  // Σ amount × price over the current round's claimed|redeemed vouchers
  double round_target = 0;  // 0 without a current round
  std::int64_t investor_count = 0;  // users with a claimed or redeemed voucher
  double current_price = 0;         // the current round's, else the last opened round's, else 0
  double market_cap = 0;            // current_price × redeemed supply
  // When the figures next change with no write to the database (a round opens or closes, a claim
  // expires), in microseconds since the Unix epoch; nullopt when nothing is due.
  std::optional<std::int64_t> next_change;
};

// All figures from one statement, so they agree with each other. Reads the figures the vouchers'
// triggers maintain (migration 0003), not every voucher.
Result<InvestmentFigures> ReadInvestmentFigures(Connection& db);

struct UserInvestment {
  double total = 0;  // Σ amount × its round's price over the user's claimed|redeemed vouchers
  std::int64_t vouchers = 0;  // how many such vouchers
};

Result<UserInvestment> ReadUserInvestment(Connection& db, std::int64_t user_id);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_TOKEN_H_
