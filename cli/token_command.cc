// netgraphctl token mint: a bearer token signed with the development key NETGRAPH_DEV_SIGNING_KEY
// (a PEM private key for NETGRAPH_JWT_ALG), for development stacks and tests. It carries the iss
// and aud the service expects (NETGRAPH_JWT_ISSUER / NETGRAPH_JWT_AUDIENCE) unless overridden, and
// with --admin the configured admin role claim (NETGRAPH_ADMIN_ROLE_CLAIM, which must be
// roles=<value>; unset: roles=["admin"]).
#include <chrono>
#include <iostream>

#include "cli/command.h"
#include "core/auth/auth_config.h"
#include "core/auth/token_minter.h"
#include "core/config/environment.h"

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

}  // namespace

std::vector<Command> TokenCommands() {
  return {{"token mint",
           "--sub DID [--email E] [--admin] [--ttl S] [--expired] [--issuer I] [--audience A]",
           "print a bearer token signed with the development key NETGRAPH_DEV_SIGNING_KEY", Mint}};
}

}  // namespace netgraph::cli
