#include "core/domain/portfolio.h"

#include "core/store/ledger.h"
#include "core/store/vouchers.h"
#include "core/store/wallets.h"

namespace netgraph::domain {

Result<Portfolio> ReadPortfolio(store::Connection& db, const User& user) {
  Portfolio portfolio;
  Status read = db.InTransaction(store::Isolation::kRepeatableRead, [&]() -> Status {
    portfolio = Portfolio{};
    portfolio.user = user;
    Result<store::TokenRow> token = store::ReadToken(db);
    if (!token.ok()) return token.status();
    Result<std::vector<std::string>> wallets = store::UserWallets(db, user.id);
    if (!wallets.ok()) return wallets.status();
    portfolio.wallets = std::move(*wallets);
    Result<std::vector<store::VoucherRow>> vouchers = store::UserVouchers(db, user.id);
    if (!vouchers.ok()) return vouchers.status();
    for (const store::VoucherRow& row : *vouchers) {
      portfolio.vouchers.push_back(VoucherFromRow(row, token->decimals));
    }
    Result<store::UserInvestment> investment = store::ReadUserInvestment(db, user.id);
    if (!investment.ok()) return investment.status();
    portfolio.total_investments = investment->total;
    portfolio.total_vouchers = investment->vouchers;
    Result<std::optional<store::TokenAccountRow>> account =
        store::LatestTokenAccountOfUser(db, user.id);
    if (!account.ok()) return account.status();
    if (account->has_value()) {
      portfolio.encrypted_balance = (*account)->encrypted_balance;
      portfolio.confidential_public_key = (*account)->confidential_public_key;
      portfolio.token_account = (*account)->account_address;
      portfolio.has_confidential_balance = (*account)->balance > 0;
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
