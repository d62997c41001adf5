#include "core/domain/voucher_admin.h"

#include "core/domain/date_time.h"
#include "core/domain/internal/amount.h"
#include "core/domain/internal/voucher_code.h"
#include "core/store/token.h"
#include "core/store/vouchers.h"

namespace netgraph::domain {

Result<std::vector<Voucher>> IssueVouchers(store::Connection& db, const IssueRequest& request) {
  if (request.count < 1 || request.count > kMaxVouchersPerIssue) {
    return Status::InvalidArgument("the count must be between 1 and " +
                                   std::to_string(kMaxVouchersPerIssue));
  }
  std::vector<Voucher> issued;
  Status written = db.InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    issued.clear();
    NETGRAPH_ASSIGN_OR_RETURN(store::TokenRow token, store::ReadToken(db));
    std::optional<std::int64_t> amount = ParseTokenAmount(request.amount, token.decimals);
    if (!amount || *amount <= 0) {
      return Status::InvalidArgument(
          "the amount must be a positive number of tokens with at most " +
          std::to_string(token.decimals) + " decimals, below 2^32 base units");
    }
    NETGRAPH_ASSIGN_OR_RETURN(
        std::optional<store::RoundRow> round,
        request.round ? store::FindRound(db, *request.round) : store::CurrentRound(db));
    if (!round.has_value()) {
      return Status::NotFound(request.round
                                  ? "no round named " + *request.round
                                  : std::string("no round is open: name one with --round"));
    }
    std::optional<std::string> expires;
    if (request.expires) expires = InstantFromNow(*request.expires);
    for (std::int64_t i = 0; i < request.count; ++i) {
      NETGRAPH_ASSIGN_OR_RETURN(std::string code, GenerateVoucherCode());
      NETGRAPH_ASSIGN_OR_RETURN(
          store::VoucherRow row,
          store::InsertVoucher(
              db, store::NewVoucher{code, *amount, round->id, expires, request.batch}));
      issued.push_back(VoucherFromRow(row, token.decimals));
    }
    return Status::Ok();
  });
  if (!written.ok()) return written;
  return issued;
}

bool IsValidVoucherPage(std::int64_t first) { return first >= 1 && first <= kMaxVoucherPage; }

std::optional<std::int64_t> ParseVoucherId(std::string_view text) {
  // At most 18 digits: always within int64.
  if (text.empty() || text.size() > 18 ||
      text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  return std::stoll(std::string(text));
}

Result<std::vector<Voucher>> ListVouchers(store::Connection& db, std::optional<VoucherState> status,
                                          std::int64_t first, std::int64_t after_id) {
  NETGRAPH_ASSIGN_OR_RETURN(store::TokenRow token, store::ReadToken(db));
  NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::VoucherRow> rows,
                            store::VoucherPage(db, status, after_id, first));
  std::vector<Voucher> vouchers;
  vouchers.reserve(rows.size());
  for (const store::VoucherRow& row : rows) vouchers.push_back(VoucherFromRow(row, token.decimals));
  return vouchers;
}

Outcome<Voucher> RevokeVoucher(store::Connection& db, std::string_view code_text) {
  const std::optional<std::string> code = NormalizeVoucherCode(code_text);
  if (!code) return Failure::kInvalidVoucherCode;
  NETGRAPH_ASSIGN_OR_RETURN(store::TokenRow token, store::ReadToken(db));
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::VoucherRow> revoked,
                            store::MarkVoucherRevoked(db, *code));
  if (revoked.has_value()) return VoucherFromRow(*revoked, token.decimals);
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::VoucherRow> found,
                            store::FindVoucherByCode(db, *code));
  if (!found.has_value()) return Failure::kVoucherNotFound;
  if (found->state == VoucherState::kExpired) return Failure::kVoucherExpired;
  if (found->state == VoucherState::kRevoked) return Failure::kVoucherRevoked;
  return Failure::kVoucherAlreadyClaimed;
}

Result<std::int64_t> ExpireDueVouchers(store::Connection& db) {
  return store::MarkDueVouchersExpired(db);
}

}  // namespace netgraph::domain
