#include "core/store/vouchers.h"

#include <cstddef>
#include <iterator>
#include <utility>

namespace netgraph::store {
namespace {

// The columns ReadVoucher expects, for a table or RETURNING list over `vouchers`.
#define NETGRAPH_VOUCHER_COLUMNS                                                             \
  "id, code, amount, round_id, voucher_state(status, expires_at), user_id, wallet_address, " \
  "epoch_us(expires_at), epoch_us(claimed_at), epoch_us(redeemed_at), redemption_id, batch"

constexpr Statement kInsert{
    "vouchers_insert",
    "INSERT INTO vouchers (code, amount, round_id, expires_at, batch) "
    "VALUES ($1, $2, $3, $4::timestamptz, $5) RETURNING " NETGRAPH_VOUCHER_COLUMNS};
constexpr Statement kFindByCode{
    "vouchers_find_by_code", "SELECT " NETGRAPH_VOUCHER_COLUMNS " FROM vouchers WHERE code = $1"};
// The round and the token come along (outer joins, so that a claim never passes unseen: the
// foreign key and the token's one row make them always found).
constexpr Statement kClaim{
    "vouchers_claim",
    "WITH claimed AS (UPDATE vouchers SET status = 'CLAIMED', user_id = $2, wallet_address = $3, "
    "claimed_at = now() "
    "WHERE code = $1 AND status = 'AVAILABLE' AND (expires_at IS NULL OR expires_at > now()) "
    "RETURNING " NETGRAPH_VOUCHER_COLUMNS
    ") "
    "SELECT c.*, r.id, r.name, r.price::float8, r.target::float8, t.decimals "
    "FROM claimed c LEFT JOIN rounds r ON r.id = c.round_id LEFT JOIN token t ON true"};
constexpr Statement kRedeem{
    "vouchers_redeem",
    "UPDATE vouchers SET status = 'REDEEMED', redeemed_at = now(), redemption_id = $3 "
    "WHERE user_id = $1 AND wallet_address = $2 AND status = 'CLAIMED' "
    "AND (expires_at IS NULL OR expires_at > now()) "
    "RETURNING " NETGRAPH_VOUCHER_COLUMNS};
constexpr Statement kRelease{
    "vouchers_release",
    "UPDATE vouchers SET status = 'AVAILABLE', user_id = NULL, wallet_address = NULL, "
    "claimed_at = NULL WHERE user_id = $1 AND wallet_address = $2 AND status = 'CLAIMED' "
    "RETURNING " NETGRAPH_VOUCHER_COLUMNS};
constexpr Statement kRevoke{"vouchers_revoke",
                            "UPDATE vouchers SET status = 'REVOKED', revoked_at = now() "
                            "WHERE code = $1 AND status IN ('AVAILABLE', 'CLAIMED') "
                            "AND (expires_at IS NULL OR expires_at > now()) "
                            "RETURNING " NETGRAPH_VOUCHER_COLUMNS};
constexpr Statement kExpireDue{"vouchers_expire_due",
                               "UPDATE vouchers SET status = 'EXPIRED' "
                               "WHERE status IN ('AVAILABLE', 'CLAIMED') AND expires_at <= now()"};
constexpr Statement kOfUser{"vouchers_of_user", "SELECT " NETGRAPH_VOUCHER_COLUMNS
                                                " FROM vouchers WHERE user_id = $1 "
                                                "ORDER BY claimed_at DESC, id DESC"};
constexpr Statement kList{
    "vouchers_list",
    "SELECT " NETGRAPH_VOUCHER_COLUMNS
    " FROM vouchers "
    "WHERE id > $2 AND ($1::text IS NULL OR voucher_state(status, expires_at) = $1) "
    "ORDER BY id LIMIT $3"};
constexpr Statement kAvailableInBatch{
    "vouchers_available_in_batch",
    "SELECT " NETGRAPH_VOUCHER_COLUMNS
    " FROM vouchers "
    "WHERE batch = $1 AND voucher_state(status, expires_at) = 'AVAILABLE' ORDER BY id"};

#undef NETGRAPH_VOUCHER_COLUMNS

// How many columns NETGRAPH_VOUCHER_COLUMNS lists: what follows them in a row comes after.
constexpr int kVoucherColumns = 12;

constexpr std::string_view kStateNames[] = {"AVAILABLE", "CLAIMED", "REDEEMED", "EXPIRED",
                                            "REVOKED"};

Result<VoucherRow> ReadVoucher(const Rows& rows, int row) {
  VoucherRow v;
  v.id = rows.Int(row, 0);
  v.code = rows.Text(row, 1);
  v.amount = rows.Int(row, 2);
  v.round_id = rows.Int(row, 3);
  const std::string_view status = rows.Text(row, 4);
  std::optional<VoucherState> state = ParseVoucherState(status);
  if (!state) {
    return Status::Internal("vouchers: voucher " + std::to_string(v.id) + " has status '" +
                            std::string(status) + "', which is none of the states");
  }
  v.state = *state;
  v.user_id = rows.OptionalInt(row, 5);
  v.wallet_address = rows.OptionalText(row, 6);
  v.expires_at = rows.OptionalInt(row, 7);
  v.claimed_at = rows.OptionalInt(row, 8);
  v.redeemed_at = rows.OptionalInt(row, 9);
  v.redemption_id = rows.OptionalInt(row, 10);
  v.batch = rows.OptionalText(row, 11);
  return v;
}

Result<std::vector<VoucherRow>> AllVouchers(Result<Rows> rows) {
  NETGRAPH_RETURN_IF_ERROR(rows);
  std::vector<VoucherRow> vouchers;
  vouchers.reserve(static_cast<std::size_t>(rows->size()));
  for (int i = 0; i < rows->size(); ++i) {
    NETGRAPH_ASSIGN_OR_RETURN(VoucherRow voucher, ReadVoucher(*rows, i));
    vouchers.push_back(std::move(voucher));
  }
  return vouchers;
}

Result<std::optional<VoucherRow>> AtMostOneVoucher(Result<Rows> rows) {
  NETGRAPH_RETURN_IF_ERROR(rows);
  if (rows->empty()) return std::optional<VoucherRow>();
  NETGRAPH_ASSIGN_OR_RETURN(VoucherRow voucher, ReadVoucher(*rows, 0));
  return std::optional<VoucherRow>(std::move(voucher));
}

}  // namespace

std::string_view VoucherStateName(VoucherState state) {
  return kStateNames[static_cast<std::size_t>(state)];
}

std::optional<VoucherState> ParseVoucherState(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kStateNames); ++i) {
    if (kStateNames[i] == name) return static_cast<VoucherState>(i);
  }
  return std::nullopt;
}

Result<VoucherRow> InsertVoucher(Connection& db, const NewVoucher& voucher) {
  NETGRAPH_ASSIGN_OR_RETURN(
      std::optional<VoucherRow> row,
      AtMostOneVoucher(
          db.Run(kInsert, {voucher.code, std::to_string(voucher.amount),
                           std::to_string(voucher.round_id), voucher.expires_at, voucher.batch})));
  if (!row.has_value()) return Status::Internal("vouchers: insert returned no row");
  return *row;
}

Result<std::optional<VoucherRow>> FindVoucherByCode(Connection& db, std::string_view code) {
  return AtMostOneVoucher(db.Run(kFindByCode, {std::string(code)}));
}

Result<std::optional<ClaimedVoucher>> ClaimAvailableVoucher(Connection& db, std::string_view code,
                                                            std::int64_t user_id,
                                                            std::string_view wallet_address) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kClaim, {std::string(code), std::to_string(user_id),
                                                       std::string(wallet_address)}));
  if (rows.empty()) return std::optional<ClaimedVoucher>();
  NETGRAPH_ASSIGN_OR_RETURN(VoucherRow voucher, ReadVoucher(rows, 0));
  constexpr int kRound = kVoucherColumns;
  if (rows.IsNull(0, kRound) || rows.IsNull(0, kRound + 4)) {
    return Status::Internal("vouchers: the claimed voucher's round or the token row is missing");
  }
  RoundRow round{rows.Int(0, kRound), std::string(rows.Text(0, kRound + 1)),
                 rows.Float(0, kRound + 2), rows.Float(0, kRound + 3)};
  return std::optional<ClaimedVoucher>(ClaimedVoucher{std::move(voucher), std::move(round),
                                                      static_cast<int>(rows.Int(0, kRound + 4))});
}

Result<std::vector<VoucherRow>> RedeemClaimedVouchers(Connection& db, std::int64_t user_id,
                                                      std::string_view wallet_address,
                                                      std::int64_t redemption_id) {
  return AllVouchers(db.Run(kRedeem, {std::to_string(user_id), std::string(wallet_address),
                                      std::to_string(redemption_id)}));
}

Result<std::vector<VoucherRow>> ReleaseClaimedVouchers(Connection& db, std::int64_t user_id,
                                                       std::string_view wallet_address) {
  return AllVouchers(db.Run(kRelease, {std::to_string(user_id), std::string(wallet_address)}));
}

Result<std::optional<VoucherRow>> MarkVoucherRevoked(Connection& db, std::string_view code) {
  return AtMostOneVoucher(db.Run(kRevoke, {std::string(code)}));
}

Result<std::int64_t> MarkDueVouchersExpired(Connection& db) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kExpireDue));
  return rows.affected();
}

Result<std::vector<VoucherRow>> UserVouchers(Connection& db, std::int64_t user_id) {
  return AllVouchers(db.Run(kOfUser, {std::to_string(user_id)}));
}

Result<std::vector<VoucherRow>> VoucherPage(Connection& db, std::optional<VoucherState> state,
                                            std::int64_t after_id, std::int64_t limit) {
  Param status;
  if (state) status = std::string(VoucherStateName(*state));
  return AllVouchers(db.Run(kList, {status, std::to_string(after_id), std::to_string(limit)}));
}

Result<std::vector<VoucherRow>> AvailableVouchersInBatch(Connection& db, std::string_view batch) {
  return AllVouchers(db.Run(kAvailableInBatch, {std::string(batch)}));
}

}  // namespace netgraph::store
