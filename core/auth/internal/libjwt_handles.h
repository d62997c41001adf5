// An owning handle for libjwt's jwt_t and the libjwt name of each pinned algorithm. Internal to
// core/auth.
#ifndef NETGRAPH_CORE_AUTH_INTERNAL_LIBJWT_HANDLES_H_
#define NETGRAPH_CORE_AUTH_INTERNAL_LIBJWT_HANDLES_H_

#include <jwt.h>

#include <memory>

#include "core/auth/auth_config.h"

namespace netgraph::auth {

struct JwtDeleter {
  void operator()(jwt_t* jwt) const { jwt_free(jwt); }
};
using JwtHandle = std::unique_ptr<jwt_t, JwtDeleter>;

inline jwt_alg_t LibJwtAlgorithm(JwtAlgorithm algorithm) {
  return algorithm == JwtAlgorithm::kES256 ? JWT_ALG_ES256 : JWT_ALG_RS256;
}

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_INTERNAL_LIBJWT_HANDLES_H_
