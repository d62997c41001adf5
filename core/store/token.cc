#include "core/store/token.h"

namespace netgraph::store {
namespace {

constexpr Statement kReadToken{"token_read", "SELECT name, symbol, decimals FROM token"};
constexpr Statement kCurrentRound{
    "rounds_current",
    "SELECT id, name, price::float8, target::float8 FROM rounds "
    "WHERE opens_at <= now() AND (closes_at IS NULL OR closes_at > now()) "
    "ORDER BY opens_at DESC, id DESC LIMIT 1"};
constexpr Statement kFindRound{
    "rounds_find", "SELECT id, name, price::float8, target::float8 FROM rounds WHERE name = $1"};
constexpr Statement kInsertRound{
    "rounds_insert",
    "INSERT INTO rounds (name, price, target, opens_at, closes_at) "
    "VALUES ($1, $2::numeric, $3::numeric, $4::timestamptz, $5::timestamptz) "
    "ON CONFLICT (name) DO NOTHING"};
constexpr Statement kUpdateToken{
    "token_update",
    "UPDATE token SET name = $1, symbol = $2, decimals = $3::smallint "
    "WHERE decimals = $3::smallint OR NOT EXISTS (SELECT 1 FROM vouchers) "
    "RETURNING name, symbol, decimals"};
constexpr Statement kListRounds{
    "rounds_list",
    "SELECT r.id, r.name, r.price::float8, r.target::float8, r.price::text, r.target::text, "
    "  epoch_us(r.opens_at), epoch_us(r.closes_at), "
    "  r.id = (SELECT id FROM rounds WHERE opens_at <= now() "
    "          AND (closes_at IS NULL OR closes_at > now()) "
    "          ORDER BY opens_at DESC, id DESC LIMIT 1) IS TRUE "
    "FROM rounds r ORDER BY r.opens_at, r.id"};
constexpr Statement kCloseRound{"rounds_close",
                                "UPDATE rounds SET closes_at = $2::timestamptz "
                                "WHERE name = $1 AND opens_at < $2::timestamptz "
                                "  AND (closes_at IS NULL OR closes_at > $2::timestamptz) "
                                "RETURNING id, name, price::float8, target::float8"};
// Amounts are summed in base units and divided by 10^decimals once, in exact numeric arithmetic.
// The sums come from the figures the vouchers' triggers maintain (migration 0003), less the claims
// past their expiry that the sweep has not stored as EXPIRED yet: the same figures as aggregating
// voucher_state over every voucher, from O(rounds + overdue claims) rows (round_investment is a
// view adding up each round's 32 shares, migration 0008). The last column is when they next change
// by time alone (a round opens or closes, a claim expires).
constexpr Statement kInvestmentFigures{
    "investment_figures",
    "WITH t AS (SELECT name, symbol, decimals, 10::numeric ^ decimals AS unit FROM token), "
    "current_round AS (SELECT id, name, price, target FROM rounds "
    "  WHERE opens_at <= now() AND (closes_at IS NULL OR closes_at > now()) "
    "  ORDER BY opens_at DESC, id DESC LIMIT 1), "
    "last_round AS (SELECT price FROM rounds WHERE opens_at <= now() "
    "  ORDER BY opens_at DESC, id DESC LIMIT 1), "
    "overdue AS (SELECT round_id, user_id, amount FROM vouchers "
    "  WHERE status = 'CLAIMED' AND expires_at <= now()) "
    "SELECT t.name, t.symbol, t.decimals, c.name, "
    "  ((COALESCE((SELECT invested FROM round_investment WHERE round_id = c.id), 0)::numeric "
    "     - COALESCE((SELECT sum(amount) FROM overdue WHERE round_id = c.id), 0)) "
    "     * COALESCE(c.price, 0) / t.unit)::float8, "
    "  COALESCE(c.target, 0)::float8, "
    "  COALESCE((SELECT investors FROM investment_totals), 0) "
    "    - (SELECT count(*) FROM (SELECT user_id, count(*) AS n FROM overdue GROUP BY user_id) o "
    "       JOIN investor_vouchers i ON i.user_id = o.user_id AND i.vouchers = o.n), "
    "  COALESCE(c.price, l.price, 0)::float8, "
    "  (COALESCE(c.price, l.price, 0) "
    "     * COALESCE((SELECT sum(redeemed) FROM round_investment), 0) / t.unit)::float8, "
    "  epoch_us(LEAST((SELECT min(opens_at) FROM rounds WHERE opens_at > now()), "
    "    (SELECT min(closes_at) FROM rounds WHERE closes_at > now()), "
    "    (SELECT min(expires_at) FROM vouchers WHERE status = 'CLAIMED' AND expires_at > now()))) "
    "FROM t LEFT JOIN current_round c ON true LEFT JOIN last_round l ON true"};
constexpr Statement kUserInvestment{
    "user_investment",
    "SELECT (COALESCE(sum(v.amount * r.price), 0) / (SELECT 10::numeric ^ decimals FROM token))"
    "::float8, count(*) "
    "FROM vouchers v JOIN rounds r ON r.id = v.round_id "
    "WHERE v.user_id = $1 AND voucher_state(v.status, v.expires_at) IN ('CLAIMED', 'REDEEMED')"};

RoundRow ReadRound(const Rows& rows, int row) {
  return RoundRow{rows.Int(row, 0), std::string(rows.Text(row, 1)), rows.Float(row, 2),
                  rows.Float(row, 3)};
}

Result<std::optional<RoundRow>> AtMostOneRound(Result<Rows> rows) {
  NETGRAPH_RETURN_IF_ERROR(rows);
  if (rows->empty()) return std::optional<RoundRow>();
  return std::optional<RoundRow>(ReadRound(*rows, 0));
}

}  // namespace

TokenRow TokenFromColumns(const Rows& rows, int first) {
  return TokenRow{std::string(rows.Text(0, first)), std::string(rows.Text(0, first + 1)),
                  static_cast<int>(rows.Int(0, first + 2))};
}

Result<TokenRow> ReadToken(Connection& db) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kReadToken));
  if (rows.empty()) return Status::Internal("token: the token row is missing");
  return TokenFromColumns(rows);
}

Result<std::optional<TokenRow>> UpdateToken(Connection& db, const TokenRow& token) {
  NETGRAPH_ASSIGN_OR_RETURN(
      Rows rows, db.Run(kUpdateToken, {token.name, token.symbol, std::to_string(token.decimals)}));
  if (rows.empty()) return std::optional<TokenRow>();
  return std::optional<TokenRow>(TokenFromColumns(rows));
}

Result<std::optional<RoundRow>> CurrentRound(Connection& db) {
  return AtMostOneRound(db.Run(kCurrentRound));
}

Result<std::optional<RoundRow>> FindRound(Connection& db, std::string_view name) {
  return AtMostOneRound(db.Run(kFindRound, {std::string(name)}));
}

Result<RoundRow> EnsureRound(Connection& db, const NewRound& round) {
  if (Status s = db.Execute(
          kInsertRound, {round.name, round.price, round.target, round.opens_at, round.closes_at});
      !s.ok()) {
    return s;
  }
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<RoundRow> stored, FindRound(db, round.name));
  if (!stored.has_value()) return Status::Internal("rounds: inserted round not found");
  return *stored;
}

Result<std::vector<RoundSchedule>> ListRounds(Connection& db) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kListRounds));
  std::vector<RoundSchedule> rounds;
  for (int i = 0; i < rows.size(); ++i) {
    rounds.push_back(RoundSchedule{ReadRound(rows, i), std::string(rows.Text(i, 4)),
                                   std::string(rows.Text(i, 5)), rows.Int(i, 6),
                                   rows.OptionalInt(i, 7), rows.Bool(i, 8)});
  }
  return rounds;
}

Result<std::optional<RoundRow>> CloseRound(Connection& db, std::string_view name,
                                           const std::string& closes_at) {
  return AtMostOneRound(db.Run(kCloseRound, {std::string(name), closes_at}));
}

Result<InvestmentFigures> ReadInvestmentFigures(Connection& db) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kInvestmentFigures));
  if (rows.empty()) return Status::Internal("token: the token row is missing");
  InvestmentFigures f;
  f.token = TokenFromColumns(rows);
  f.current_round = rows.OptionalText(0, 3);
  f.round_raised = rows.Float(0, 4);
  f.round_target = rows.Float(0, 5);
  f.investor_count = rows.Int(0, 6);
  f.current_price = rows.Float(0, 7);
  f.market_cap = rows.Float(0, 8);
  f.next_change = rows.OptionalInt(0, 9);
  return f;
}

Result<UserInvestment> ReadUserInvestment(Connection& db, std::int64_t user_id) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kUserInvestment, {std::to_string(user_id)}));
  if (rows.empty()) return Status::Internal("user_investment: no row");
  return UserInvestment{rows.Float(0, 0), rows.Int(0, 1)};
}

}  // namespace netgraph::store
