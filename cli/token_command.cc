// netgraphctl token set: the token the service issues vouchers of (core/domain/token_admin.h).
//
// netgraphctl token mint: a bearer token signed with the development key NETGRAPH_DEV_SIGNING_KEY
// (a PEM private key for NETGRAPH_JWT_ALG), for development stacks and tests. It carries the iss
// and aud the service expects (NETGRAPH_JWT_ISSUER / NETGRAPH_JWT_AUDIENCE) unless overridden, and
// with --admin the configured admin role claim (NETGRAPH_ADMIN_ROLE_CLAIM, which must be
// roles=<value>; unset: roles=["admin"]).
#include <algorithm>
#include <chrono>
#include <iostream>

#include "cli/command.h"
#include "core/auth/auth_config.h"
#include "core/auth/token_minter.h"
#include "core/config/environment.h"
#include "core/domain/token_admin.h"
#include "core/store/connection.h"

namespace netgraph::cli {
namespace {

constexpr long long kMaxTtlSeconds = 366LL * 86400;

int Mint(Arguments& arguments) {
  std::optional<std::string> subject = arguments.Option("sub");
  std::optional<std::string> email = arguments.Option("email");
  std::optional<std::string> ttl_text = arguments.Option("ttl");
  std::optional<std::string> issuer = arguments.Option("issuer");
  std::optional<std::string> audience = arguments.Option("audience");
  const bool admin = arguments.Flag("admin");
  const bool expired = arguments.Flag("expired");
  std::optional<long long> ttl = ttl_text ? ParseInteger(*ttl_text) : 3600;
  Status finished = arguments.Finish();
  if (!finished.ok() || !subject || subject->empty() || !ttl || *ttl < 1 || *ttl > kMaxTtlSeconds) {
    std::cerr << "netgraphctl token mint: "
              << (!finished.ok()                 ? finished.message()
                  : !subject || subject->empty() ? std::string("--sub DID is required")
                                                 : "--ttl must be 1 to 31622400 seconds")
              << "\n";
    return kExitUsage;
  }

  config::Environment env;
  const std::string key_file = env.String("NETGRAPH_DEV_SIGNING_KEY");
  if (key_file.empty()) {
    std::cerr << "netgraphctl token mint: NETGRAPH_DEV_SIGNING_KEY is not set; tokens are minted "
                 "only with a development stack's key\n";
    return kExitFailed;
  }
  Result<auth::AuthConfig> auth = auth::LoadAuthConfig(env);
  if (Status s = env.status(); !s.ok() || !auth.ok()) {
    std::cerr << "netgraphctl token mint: " << (s.ok() ? auth.status().message() : s.message())
              << "\n";
    return kExitFailed;
  }

  auth::MintOptions options;
  options.subject = *subject;
  options.email = email;
  options.ttl = std::chrono::seconds(*ttl);
  options.expired = expired;
  options.issuer = issuer ? issuer : auth->issuer;
  options.audience = audience ? audience : auth->audience;
  if (admin) {
    if (auth->admin_role_claim && auth->admin_role_claim->name != "roles") {
      std::cerr << "netgraphctl token mint: --admin needs NETGRAPH_ADMIN_ROLE_CLAIM=roles=<value>, "
                   "not a '"
                << auth->admin_role_claim->name << "' claim\n";
      return kExitFailed;
    }
    options.roles = {auth->admin_role_claim ? auth->admin_role_claim->value : "admin"};
  }
  Result<auth::TokenMinter> minter = auth::TokenMinter::FromFile(auth->algorithm, key_file);
  if (!minter.ok()) {
    std::cerr << "netgraphctl token mint: " << minter.status().message() << "\n";
    return kExitFailed;
  }
  Result<std::string> token = minter->Mint(options, std::chrono::system_clock::now());
  if (!token.ok()) {
    std::cerr << "netgraphctl token mint: " << token.status().message() << "\n";
    return kExitFailed;
  }
  std::cout << *token << "\n";
  return kExitOk;
}

int Set(Arguments& arguments) {
  domain::TokenChange change;
  change.name = arguments.Option("name");
  change.symbol = arguments.Option("symbol");
  std::optional<std::string> decimals = arguments.Option("decimals");
  std::optional<long long> parsed = decimals ? ParseInteger(*decimals) : std::nullopt;
  Status finished = arguments.Finish();
  if (!finished.ok() || (decimals && !parsed) || (!change.name && !change.symbol && !decimals)) {
    std::cerr << "netgraphctl token set: "
              << (!finished.ok() ? finished.message()
                  : decimals && !parsed
                      ? std::string("--decimals must be a whole number from 0 to 9")
                      : "name what to set: --name, --symbol or --decimals")
              << "\n";
    return kExitUsage;
  }
  if (parsed) change.decimals = static_cast<int>(std::clamp<long long>(*parsed, -1, 10));
  config::Environment env;
  store::Connection db(env.DatabaseUrl());
  Result<store::TokenRow> token = domain::SetToken(db, change);
  if (!token.ok()) {
    std::cerr << "netgraphctl token set: " << token.status().message() << "\n";
    return token.status().code() == StatusCode::kInvalidArgument ? kExitUsage : kExitFailed;
  }
  std::cout << "token: " << token->name << " (" << token->symbol << "), " << token->decimals
            << " decimals\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> TokenCommands() {
  return {{"token set",
           "[--name N] [--symbol S] [--decimals D]",
           "name the token the service issues vouchers of, as investmentData shows it",
           Set,
           {{"--name N", "its name (1 to 100 characters)"},
            {"--symbol S", "its symbol (1 to 10 capital letters or digits)"},
            {"--decimals D",
             "base units per token as a power of ten (0 to 9; default 2); "
             "fixed once a voucher exists"}}},
          {"token mint",
           "--sub DID [--email E] [--admin] [--ttl S] [--expired] [--issuer I] [--audience A]",
           "print a bearer token signed with the development key NETGRAPH_DEV_SIGNING_KEY "
           "(development stacks and tests only)",
           Mint,
           {{"--sub DID", "the token's subject, the user's idpDid"},
            {"--email E", "an email claim"},
            {"--admin", "the administrators' role claim (NETGRAPH_ADMIN_ROLE_CLAIM)"},
            {"--ttl S", "seconds until it expires (default 3600)"},
            {"--expired", "one that has expired already"},
            {"--issuer I", "the iss claim (default NETGRAPH_JWT_ISSUER)"},
            {"--audience A", "the aud claim (default NETGRAPH_JWT_AUDIENCE)"}},
           RunAs::kAnyone}};
}

}  // namespace netgraph::cli
