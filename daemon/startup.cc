#include "daemon/startup.h"

#include <sys/prctl.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <optional>
#include <utility>

#include "core/crypto/private_file.h"
#include "core/domain/update_authenticator.h"
#include "core/log.h"
#include "core/store/connection.h"
#include "core/store/migrations.h"

namespace netgraph::daemon {

Result<LoadedService> LoadService(config::Environment& env,
                                  const std::function<void(api::ServiceConfig&)>& adjust) {
  if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
    return Status::Internal(std::string("making the process non-dumpable (prctl): ") +
                            std::strerror(errno));
  }
  const std::string level =
      env.OneOf("NETGRAPH_LOG_LEVEL", {"debug", "info", "warn", "error"}, "info");
  Result<api::ServiceConfig> config = api::ServiceConfig::FromEnvironment(env);
  // The update signing key is as secret as the treasury keypair, and checked the same way.
  const std::string signing_key = env.String(domain::kUpdateSigningKeyFileVariable);
  if (!signing_key.empty() && signing_key != "off") {
    if (Status s = crypto::CheckPrivateFile(signing_key, "update signing key file"); !s.ok()) {
      env.AddProblem(std::string(domain::kUpdateSigningKeyFileVariable) + ": " + s.message());
    }
  }
  for (const std::string& warning : env.warnings()) log::Warn(warning);
  NETGRAPH_RETURN_IF_ERROR(env.status());
  if (adjust) adjust(config.value());
  // Key files and the treasury keypair are read here: a file that does not load is a
  // configuration mistake too, found before anything is served.
  Result<std::unique_ptr<api::Service>> service = api::Service::Create(*config);
  if (!service.ok()) {
    env.AddProblem(service.status().message());
    return env.status();
  }
  log::SetLevel(*log::ParseLevel(level));
  // A JWKS URL is fetched once here, so the pool's workers, forked from this process, start with
  // its keys. A provider that does not answer is no configuration mistake: the service starts,
  // refuses tokens until a fetch succeeds, and retries (core/auth/jwks_key_set.h logs why).
  if (const std::shared_ptr<auth::JwksKeySet>& keys = (*service)->token_key_set()) {
    keys->RefreshIfDue();
  }
  return LoadedService{std::move(config.value()), std::move(service.value())};
}

Status CheckDatabaseSchema(config::Environment& env) {
  store::Connection database(env.DatabaseUrl(), store::ConnectionOptions::FromEnvironment(env));
  Status schema = store::RequireSchema(database);
  if (schema.code() == StatusCode::kUnavailable) {
    log::Warn("cannot check the database schema yet (" + schema.message() + "); starting anyway");
    return Status::Ok();
  }
  return schema;
}

int CheckConfiguration(const Status& read, const config::Environment& env) {
  if (read.ok()) {
    // On stdout, whatever NETGRAPH_LOG_LEVEL says: it is the answer, not a log line.
    std::cout << "configuration is valid"
              << (env.file().empty() ? std::string(" (no configuration file)")
                                     : " (configuration file " + env.file() + ")")
              << std::endl;
    return 0;
  }
  for (const std::string& problem : env.problems()) log::Error("configuration: " + problem);
  return kExitConfig;
}

int PrintConfiguration(const Status& read, const config::Environment& env) {
  std::cout << "# configuration file: " << (env.file().empty() ? "none" : env.file()) << "\n";
  for (const config::Reading& reading : env.readings()) {
    std::cout << reading.name << "=" << reading.value << "  # " << reading.source << "\n";
  }
  return CheckConfiguration(read, env);
}

}  // namespace netgraph::daemon
