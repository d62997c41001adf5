// The error value every layer of the core returns instead of throwing: a Status says whether an
// operation worked and, when not, why (a code a caller can act on, and a message for people); a
// Result<T> carries either a T or the Status that explains its absence.
//
// Codes follow Abseil's canonical ones. A caller branches on the code (IsAborted(), code()), never
// on the message: messages are for people and tests, and keep their wording across code changes.
// Two codes mean "the same request may work if run again": kAborted (a lost race: serialization
// failure, deadlock) and kUnavailable (the service or connection was lost before anything
// happened). IsRetryable() tells them apart from the rest.
//
// Propagation: NETGRAPH_RETURN_IF_ERROR(expr) returns the Status of `expr` (a Status or a
// Result<T>) from the enclosing function when it is not ok; NETGRAPH_ASSIGN_OR_RETURN(lhs, expr)
// evaluates the Result<T> `expr` and either moves its value into `lhs` (a declaration such as
// `std::string text`, or an existing variable) or returns its Status. Both work in any function
// whose return type is constructible from a Status (Status, Result<U>, domain::Outcome<U>). A
// type with a comma in it (std::pair<A, B>) needs an alias to be an `lhs`.
#ifndef NETGRAPH_CORE_STATUS_H_
#define NETGRAPH_CORE_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace netgraph {

enum class StatusCode {
  kOk,
  kUnknown,             // an error no more specific code describes
  kInvalidArgument,     // the input is wrong, whatever the state of the system
  kNotFound,            // what the input names does not exist
  kAlreadyExists,       // what the input would create exists already
  kFailedPrecondition,  // the system is not in the state the operation needs
  kPermissionDenied,    // the caller is known but may not do this
  kUnauthenticated,     // the caller is not (validly) identified
  kResourceExhausted,   // a limit or quota is used up
  kAborted,             // a concurrency conflict (serialization failure, deadlock): retry
  kUnavailable,         // the service or connection is (transiently) gone: retry
  kDeadlineExceeded,    // a time limit (statement or lock timeout) ran out
  kInternal,            // an invariant broke or a dependency failed unexpectedly
};

// "NOT_FOUND" etc., as Abseil and gRPC spell them: for logs and test failure messages.
constexpr std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kUnknown:
      return "UNKNOWN";
    case StatusCode::kInvalidArgument:
      return "INVALID_ARGUMENT";
    case StatusCode::kNotFound:
      return "NOT_FOUND";
    case StatusCode::kAlreadyExists:
      return "ALREADY_EXISTS";
    case StatusCode::kFailedPrecondition:
      return "FAILED_PRECONDITION";
    case StatusCode::kPermissionDenied:
      return "PERMISSION_DENIED";
    case StatusCode::kUnauthenticated:
      return "UNAUTHENTICATED";
    case StatusCode::kResourceExhausted:
      return "RESOURCE_EXHAUSTED";
    case StatusCode::kAborted:
      return "ABORTED";
    case StatusCode::kUnavailable:
      return "UNAVAILABLE";
    case StatusCode::kDeadlineExceeded:
      return "DEADLINE_EXCEEDED";
    case StatusCode::kInternal:
      return "INTERNAL";
  }
  return "UNKNOWN";
}

class [[nodiscard]] Status {
 public:
  static Status Ok() { return Status(); }
  // An error of `code`; kOk is not an error and is turned into kUnknown.
  static Status FromCode(StatusCode code, std::string message) {
    return Status(code == StatusCode::kOk ? StatusCode::kUnknown : code, std::move(message));
  }
  static Status InvalidArgument(std::string message) {
    return Status(StatusCode::kInvalidArgument, std::move(message));
  }
  static Status NotFound(std::string message) {
    return Status(StatusCode::kNotFound, std::move(message));
  }
  static Status AlreadyExists(std::string message) {
    return Status(StatusCode::kAlreadyExists, std::move(message));
  }
  static Status FailedPrecondition(std::string message) {
    return Status(StatusCode::kFailedPrecondition, std::move(message));
  }
  static Status PermissionDenied(std::string message) {
    return Status(StatusCode::kPermissionDenied, std::move(message));
  }
  static Status Unauthenticated(std::string message) {
    return Status(StatusCode::kUnauthenticated, std::move(message));
  }
  static Status ResourceExhausted(std::string message) {
    return Status(StatusCode::kResourceExhausted, std::move(message));
  }
  static Status Aborted(std::string message) {
    return Status(StatusCode::kAborted, std::move(message));
  }
  static Status Unavailable(std::string message) {
    return Status(StatusCode::kUnavailable, std::move(message));
  }
  static Status DeadlineExceeded(std::string message) {
    return Status(StatusCode::kDeadlineExceeded, std::move(message));
  }
  static Status Internal(std::string message) {
    return Status(StatusCode::kInternal, std::move(message));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  // Empty when ok().
  const std::string& message() const { return message_; }
  // The same error with `context` in front of its message ("context: message"); Ok stays Ok.
  Status WithContext(std::string_view context) const {
    if (ok()) return *this;
    return Status(code_, std::string(context) + ": " + message_);
  }

  bool IsInvalidArgument() const { return code_ == StatusCode::kInvalidArgument; }
  bool IsNotFound() const { return code_ == StatusCode::kNotFound; }
  bool IsAlreadyExists() const { return code_ == StatusCode::kAlreadyExists; }
  bool IsFailedPrecondition() const { return code_ == StatusCode::kFailedPrecondition; }
  bool IsPermissionDenied() const { return code_ == StatusCode::kPermissionDenied; }
  bool IsUnauthenticated() const { return code_ == StatusCode::kUnauthenticated; }
  bool IsResourceExhausted() const { return code_ == StatusCode::kResourceExhausted; }
  bool IsAborted() const { return code_ == StatusCode::kAborted; }
  bool IsUnavailable() const { return code_ == StatusCode::kUnavailable; }
  bool IsDeadlineExceeded() const { return code_ == StatusCode::kDeadlineExceeded; }
  bool IsInternal() const { return code_ == StatusCode::kInternal; }
  // Running the same operation again may succeed: a lost race or a lost connection.
  bool IsRetryable() const { return IsAborted() || IsUnavailable(); }

 private:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value)
      : value_(std::move(value)), status_(Status::Ok()) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return value_.has_value(); }
  // Ok when ok().
  const Status& status() const& { return status_; }
  Status status() && { return std::move(status_); }
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  const T* operator->() const { return &*value_; }
  T* operator->() { return &*value_; }
  const T& operator*() const { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

namespace status_internal {
inline const Status& StatusOf(const Status& status) { return status; }
template <typename T>
const Status& StatusOf(const Result<T>& result) {
  return result.status();
}
}  // namespace status_internal

}  // namespace netgraph

#define NETGRAPH_STATUS_CONCAT_INNER_(a, b) a##b
#define NETGRAPH_STATUS_CONCAT_(a, b) NETGRAPH_STATUS_CONCAT_INNER_(a, b)

// The local's name is unique per use, so a NETGRAPH_RETURN_IF_ERROR inside a lambda passed to
// another (a transaction body) does not shadow the outer one.
#define NETGRAPH_RETURN_IF_ERROR(expr) \
  NETGRAPH_RETURN_IF_ERROR_IMPL_(NETGRAPH_STATUS_CONCAT_(netgraph_returned_, __COUNTER__), expr)

#define NETGRAPH_RETURN_IF_ERROR_IMPL_(returned, expr)                                          \
  do {                                                                                          \
    if (const auto& returned = (expr); !::netgraph::status_internal::StatusOf(returned).ok()) { \
      return ::netgraph::Status(::netgraph::status_internal::StatusOf(returned));               \
    }                                                                                           \
  } while (false)

#define NETGRAPH_ASSIGN_OR_RETURN(lhs, expr) \
  NETGRAPH_ASSIGN_OR_RETURN_IMPL_(NETGRAPH_STATUS_CONCAT_(netgraph_result_, __LINE__), lhs, expr)

#define NETGRAPH_ASSIGN_OR_RETURN_IMPL_(result, lhs, expr) \
  auto result = (expr);                                    \
  if (!result.ok()) return std::move(result).status();     \
  lhs = std::move(result).value()

#endif  // NETGRAPH_CORE_STATUS_H_
