#include "core/domain/portfolio.h"

#include "core/store/ledger.h"
#include "core/store/users.h"
#include "core/store/vouchers.h"
#include "core/store/wallets.h"

namespace netgraph::domain {

Result<Portfolio> ReadPortfolio(store::Connection& db, const User& user) {
  Portfolio portfolio;
  Status read = db.InTransaction(store::Isolation::kRepeatableRead, [&]() -> Status {
    portfolio = Portfolio{};
    portfolio.user = user;
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::UserRow> stored,
                              store::FindUserByDid(db, user.idp_did));
    if (stored.has_value()) portfolio.user.email = stored->email;
    NETGRAPH_ASSIGN_OR_RETURN(store::TokenRow token, store::ReadToken(db));
    Result<std::vector<std::string>> wallets = store::UserWallets(db, user.id);
    NETGRAPH_RETURN_IF_ERROR(wallets);
    portfolio.wallets = std::move(*wallets);
    NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::VoucherRow> vouchers,
                              store::UserVouchers(db, user.id));
    for (const store::VoucherRow& row : vouchers) {
      portfolio.vouchers.push_back(VoucherFromRow(row, token.decimals));
      const Voucher& voucher = portfolio.vouchers.back();
      const bool open =
          voucher.status == VoucherState::kClaimed || voucher.status == VoucherState::kAvailable;
      if (open && voucher.expires_at &&
          (!portfolio.next_change || *voucher.expires_at < *portfolio.next_change)) {
        portfolio.next_change = voucher.expires_at;
      }
    }
    NETGRAPH_ASSIGN_OR_RETURN(store::UserInvestment investment,
                              store::ReadUserInvestment(db, user.id));
    portfolio.total_investments = investment.total;
    portfolio.total_vouchers = investment.vouchers;
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::TokenAccountRow> account,
                              store::LatestTokenAccountOfUser(db, user.id));
    if (account.has_value()) {
      portfolio.encrypted_balance = account->encrypted_balance;
      portfolio.confidential_public_key = account->confidential_public_key;
      portfolio.token_account = account->account_address;
      portfolio.has_confidential_balance = account->balance > 0;
    }
    return Status::Ok();
  });
  if (!read.ok()) return read;
  return portfolio;
}

Result<InvestmentData> ReadInvestmentData(store::Connection& db) {
  return store::ReadInvestmentFigures(db);
}

}  // namespace netgraph::domain
