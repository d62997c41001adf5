#include "core/auth/token_minter.h"

#include <jwt.h>
#include <openssl/pem.h>

#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <utility>

#include "core/auth/internal/keys.h"
#include "core/auth/internal/libjwt_handles.h"
#include "core/auth/internal/openssl_handles.h"

namespace netgraph::auth {

namespace {

// Refuses to decrypt instead of letting OpenSSL prompt on the terminal for a passphrase.
int NoPassphrase(char*, int, int, void*) { return -1; }

struct FreeString {
  void operator()(char* text) const { std::free(text); }
};

}  // namespace

Result<TokenMinter> TokenMinter::Create(JwtAlgorithm algorithm, std::string private_key_pem) {
  BioHandle bio(BIO_new_mem_buf(private_key_pem.data(), static_cast<int>(private_key_pem.size())));
  PkeyHandle key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, NoPassphrase, nullptr)
                     : nullptr);
  if (!key) {
    return Status::InvalidArgument("not an unencrypted PEM private key: " + TakeOpenSslError());
  }
  NETGRAPH_RETURN_IF_ERROR(CheckKeyFitsAlgorithm(key.get(), algorithm));
  return TokenMinter(algorithm, std::move(private_key_pem));
}

Result<TokenMinter> TokenMinter::FromFile(JwtAlgorithm algorithm, const std::string& path) {
  NETGRAPH_ASSIGN_OR_RETURN(std::string pem, ReadKeyFile(path));
  Result<TokenMinter> minter = Create(algorithm, std::move(pem));
  if (!minter.ok()) return minter.status().WithContext(path);
  return minter;
}

TokenMinter::TokenMinter(JwtAlgorithm algorithm, std::string private_key_pem)
    : algorithm_(algorithm), private_key_pem_(std::move(private_key_pem)) {}

Result<std::string> TokenMinter::Mint(const MintOptions& options,
                                      std::chrono::system_clock::time_point now) const {
  using std::chrono::hours;
  using std::chrono::seconds;
  const std::int64_t now_seconds = std::chrono::floor<seconds>(now.time_since_epoch()).count();
  const std::int64_t exp =
      options.expired ? now_seconds - seconds(hours(1)).count() : now_seconds + options.ttl.count();

  nlohmann::json claims = {
      {"sub", options.subject}, {"iat", exp - options.ttl.count()}, {"exp", exp}};
  if (options.email) claims["email"] = *options.email;
  if (options.issuer) claims["iss"] = *options.issuer;
  if (options.audience) claims["aud"] = *options.audience;
  if (!options.roles.empty()) claims["roles"] = options.roles;

  jwt_t* raw = nullptr;
  if (jwt_new(&raw) != 0) return Status::Internal("jwt_new failed");
  JwtHandle jwt(raw);
  if (jwt_add_grants_json(jwt.get(), claims.dump().c_str()) != 0 ||
      (options.kid && jwt_add_header(jwt.get(), "kid", options.kid->c_str()) != 0) ||
      jwt_set_alg(jwt.get(), LibJwtAlgorithm(algorithm_),
                  reinterpret_cast<const unsigned char*>(private_key_pem_.data()),
                  static_cast<int>(private_key_pem_.size())) != 0) {
    return Status::Internal("cannot build the token");
  }
  std::unique_ptr<char, FreeString> token(jwt_encode_str(jwt.get()));
  if (!token) return Status::Internal("libjwt cannot sign the token");
  return std::string(token.get());
}

}  // namespace netgraph::auth
