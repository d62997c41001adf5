// Owning handles for the OpenSSL objects the auth code creates, and the text of OpenSSL's error
// queue for messages. Internal to core/auth (and its tests).
#ifndef NETGRAPH_CORE_AUTH_INTERNAL_OPENSSL_HANDLES_H_
#define NETGRAPH_CORE_AUTH_INTERNAL_OPENSSL_HANDLES_H_

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <memory>
#include <string>

namespace netgraph::auth {

template <typename T, void (*Free)(T*)>
struct OpenSslDeleter {
  void operator()(T* p) const { Free(p); }
};

using PkeyHandle = std::unique_ptr<EVP_PKEY, OpenSslDeleter<EVP_PKEY, EVP_PKEY_free>>;
using PkeyContextHandle =
    std::unique_ptr<EVP_PKEY_CTX, OpenSslDeleter<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using BioHandle = std::unique_ptr<BIO, OpenSslDeleter<BIO, BIO_free_all>>;
using BignumHandle = std::unique_ptr<BIGNUM, OpenSslDeleter<BIGNUM, BN_free>>;
using ParamBuilderHandle =
    std::unique_ptr<OSSL_PARAM_BLD, OpenSslDeleter<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using ParamsHandle = std::unique_ptr<OSSL_PARAM, OpenSslDeleter<OSSL_PARAM, OSSL_PARAM_free>>;

// The oldest queued OpenSSL error as text (empty when none), clearing the queue so that the next
// failure does not report a stale reason.
inline std::string TakeOpenSslError() {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return {};
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return text;
}

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_INTERNAL_OPENSSL_HANDLES_H_
