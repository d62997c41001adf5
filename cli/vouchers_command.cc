// netgraphctl vouchers issue|list|revoke: the operator's voucher tools
// (core/domain/voucher_admin.h).
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/domain/failure.h"
#include "core/domain/voucher_admin.h"
#include "core/store/connection.h"

namespace netgraph::cli {
namespace {

std::string DatabaseUrl() {
  config::Environment env;
  return env.DatabaseUrl();
}

int Issue(Arguments& arguments) {
  domain::IssueRequest request;
  std::optional<std::string> amount = arguments.Option("amount");
  std::optional<std::string> count = arguments.Option("count");
  request.round = arguments.Option("round");
  request.expires = arguments.Option("expires");
  request.batch = arguments.Option("batch");
  std::optional<long long> parsed_count = count ? ParseInteger(*count) : 1;
  Status finished = arguments.Finish();
  if (!finished.ok() || !amount || !parsed_count) {
    std::cerr << "netgraphctl vouchers issue: "
              << (!finished.ok() ? finished.message()
                  : !amount      ? std::string("--amount A is required")
                                 : "--count must be a whole number")
              << "\n";
    return kExitUsage;
  }
  request.amount = *amount;
  request.count = *parsed_count;
  store::Connection db(DatabaseUrl());
  Result<std::vector<domain::Voucher>> issued = domain::IssueVouchers(db, request);
  if (!issued.ok()) {
    std::cerr << "netgraphctl vouchers issue: " << issued.status().message() << "\n";
    return kExitFailed;
  }
  for (const domain::Voucher& v : *issued) std::cout << v.code << "\n";
  return kExitOk;
}

nlohmann::json VoucherJson(const domain::Voucher& v) {
  auto instant = [](const std::optional<domain::Timestamp>& t) {
    return t ? nlohmann::json(domain::FormatDateTime(*t)) : nlohmann::json();
  };
  return {
      {"id", std::to_string(v.id)},
      {"code", v.code},
      {"amount", v.amount},
      {"status", domain::VoucherStateName(v.status)},
      {"walletAddress", v.wallet_address ? nlohmann::json(*v.wallet_address) : nlohmann::json()},
      {"claimedAt", instant(v.claimed_at)},
      {"redeemedAt", instant(v.redeemed_at)},
      {"expiresAt", instant(v.expires_at)}};
}

int List(Arguments& arguments) {
  std::optional<std::string> status_text = arguments.Option("status");
  std::optional<domain::VoucherState> status;
  if (status_text) status = domain::ParseVoucherState(*status_text);
  std::optional<std::string> first_text = arguments.Option("first");
  std::optional<std::string> after_text = arguments.Option("after");
  const bool json = arguments.Flag("json");
  std::optional<long long> first =
      first_text ? ParseInteger(*first_text) : domain::kDefaultVoucherPage;
  std::optional<std::int64_t> after =
      after_text ? domain::ParseVoucherId(*after_text) : std::optional<std::int64_t>(0);
  Status finished = arguments.Finish();
  std::string problem = !finished.ok() ? finished.message()
                        : status_text && !status
                            ? "--status must be AVAILABLE, CLAIMED, REDEEMED, EXPIRED or REVOKED"
                        : !first || !domain::IsValidVoucherPage(*first)
                            ? "--first must be 1 to " + std::to_string(domain::kMaxVoucherPage)
                        : !after ? "--after must be a voucher id"
                                 : "";
  if (!problem.empty()) {
    std::cerr << "netgraphctl vouchers list: " << problem << "\n";
    return kExitUsage;
  }
  store::Connection db(DatabaseUrl());
  Result<std::vector<domain::Voucher>> page = domain::ListVouchers(db, status, *first, *after);
  if (!page.ok()) {
    std::cerr << "netgraphctl vouchers list: " << page.status().message() << "\n";
    return kExitFailed;
  }
  if (json) {
    nlohmann::json list = nlohmann::json::array();
    for (const domain::Voucher& v : *page) list.push_back(VoucherJson(v));
    std::cout << list.dump(2) << "\n";
    return kExitOk;
  }
  for (const domain::Voucher& v : *page) {
    std::cout << v.id << "\t" << v.code << "\t" << v.amount << "\t"
              << domain::VoucherStateName(v.status) << "\t" << v.wallet_address.value_or("-")
              << "\t" << (v.expires_at ? domain::FormatDateTime(*v.expires_at) : "-") << "\n";
  }
  return kExitOk;
}

int Revoke(Arguments& arguments) {
  std::vector<std::string> codes = arguments.Positionals();
  if (Status s = arguments.Finish(); !s.ok() || codes.size() != 1) {
    std::cerr << "netgraphctl vouchers revoke: " << (s.ok() ? "name exactly one CODE" : s.message())
              << "\n";
    return kExitUsage;
  }
  store::Connection db(DatabaseUrl());
  domain::Outcome<domain::Voucher> revoked = domain::RevokeVoucher(db, codes[0]);
  if (const Status* error = revoked.error()) {
    std::cerr << "netgraphctl vouchers revoke: " << error->message() << "\n";
    return kExitFailed;
  }
  if (revoked.failure()) {
    std::cerr << "netgraphctl vouchers revoke: " << domain::FailureText(*revoked.failure()) << "\n";
    return kExitFailed;
  }
  std::cout << "revoked " << revoked->code << "\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> VoucherCommands() {
  return {
      {"vouchers issue",
       "--amount A [--count N] [--round R] [--expires T] [--batch B]",
       "issue vouchers of A tokens and print their codes, one per line",
       Issue,
       {{"--amount A", "tokens per voucher, with at most the token's decimals, e.g. 25 or 12.50"},
        {"--count N", "how many vouchers (1 to 10000, default 1)"},
        {"--round R", "the round they belong to (default: the current round)"},
        {"--expires T",
         "when they expire: RFC 3339, or a time from now (90s, 30m, 12h, 7d); "
         "never if unset"},
        {"--batch B", "a tag to find them by later"}}},
      {"vouchers list",
       "[--status S] [--first N] [--after ID] [--json]",
       "list vouchers by id: id, code, amount, status, wallet, expiry (tab-separated, or JSON)",
       List,
       {{"--status S", "only those with status S: AVAILABLE, CLAIMED, REDEEMED, EXPIRED, REVOKED"},
        {"--first N", "at most N vouchers (1 to 1000, default 100)"},
        {"--after ID", "the vouchers after this id (the last one a page showed)"},
        {"--json", "print a JSON array of the vouchers as allVouchers shows them"}}},
      {"vouchers revoke",
       "CODE",
       "revoke an available or claimed voucher",
       Revoke,
       {{"CODE", "the voucher's code, as issued (any case, with or without dashes)"}}},
  };
}

}  // namespace netgraph::cli
