// The ways a domain operation can be refused, with the stable texts clients match on (docs/api.md),
// and Outcome<T>: what an operation returns: a value, a refusal, or an internal error (the
// database is down...), which the API reports as a GraphQL error rather than as a refusal.
#ifndef NETGRAPH_CORE_DOMAIN_FAILURE_H_
#define NETGRAPH_CORE_DOMAIN_FAILURE_H_

#include <optional>
#include <string_view>
#include <utility>
#include <variant>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::domain {

enum class Failure {
  kAuthenticationRequired,
  kInvalidVoucherCode,
  kVoucherNotFound,
  kVoucherAlreadyClaimed,
  kVoucherExpired,
  kVoucherRevoked,
  kInvalidWalletAddress,
  kWalletBelongsToAnotherUser,  // bound by a claim, without proof: its key holder can take it over
  kWalletProvenByAnotherUser,   // same stable text; only an operator can move it
  kInvalidConfidentialPublicKey,
  kNoClaimedVouchers,
  kConfidentialKeyMismatch,
  kBalanceLimitExceeded,
  kTooManyAttempts,
  kTooManyWalletChallenges,  // same stable text as kTooManyAttempts
  kNoWalletChallenge,
  kWalletChallengeExpired,
  kWalletChallengeUsed,
  kInvalidWalletSignature,
};

// The short stable text, e.g. "Voucher not found": the API's `error` field.
std::string_view FailureText(Failure failure);
// A sentence for people: the API's `message` field.
std::string_view FailureMessage(Failure failure);

template <typename T>
class [[nodiscard]] Outcome {
 public:
  Outcome(T value) : state_(std::move(value)) {}       // NOLINT: implicit by design
  Outcome(Failure failure) : state_(failure) {}        // NOLINT
  Outcome(Status error) : state_(std::move(error)) {}  // NOLINT: must not be Ok

  bool ok() const { return state_.index() == 0; }
  const T& value() const { return std::get<0>(state_); }
  T& value() { return std::get<0>(state_); }
  const T* operator->() const { return &value(); }
  std::optional<Failure> failure() const {
    if (const Failure* f = std::get_if<1>(&state_)) return *f;
    return std::nullopt;
  }
  // An internal error: neither a value nor a refusal.
  const Status* error() const { return std::get_if<2>(&state_); }

 private:
  std::variant<T, Failure, Status> state_;
};

// Runs `attempt` (a callable returning Outcome<T>) as a transaction of its own at `isolation`: a
// value commits, a refusal rolls the whole transaction back so that nothing of the attempt is kept,
// and an internal error is returned after the rollback. Aborts (deadlocks, serialization failures)
// run the attempt again, as store::Connection::InTransaction does. For attempts that are the whole
// transaction: a savepoint around them would cost two round trips more (SAVEPOINT, RELEASE).
template <typename T, typename Attempt>
Outcome<T> InAttemptTransaction(store::Connection& db, store::Isolation isolation,
                                Attempt&& attempt) {
  std::optional<Outcome<T>> outcome;
  const Status ended = db.InTransaction(isolation, [&]() -> Status {
    outcome = attempt();
    if (const Status* error = outcome->error()) return *error;
    // Any status but OK rolls the transaction back; this code is never retried.
    if (outcome->failure()) return Status::FailedPrecondition("the attempt was refused");
    return Status::Ok();
  });
  if (outcome.has_value() && outcome->failure()) return std::move(*outcome);
  if (!ended.ok()) return ended;
  return std::move(*outcome);
}

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_FAILURE_H_
