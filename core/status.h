// The error value every layer of the core returns instead of throwing: a Status says whether an
// operation worked and, when not, why; a Result<T> carries either a T or the Status that explains
// its absence.
#ifndef NETGRAPH_CORE_STATUS_H_
#define NETGRAPH_CORE_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace netgraph {

class [[nodiscard]] Status {
 public:
  static Status Ok() { return Status(); }
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !message_.has_value(); }
  // Empty when ok().
  const std::string& message() const {
    static const std::string kEmpty;
    return message_ ? *message_ : kEmpty;
  }

 private:
  Status() = default;
  explicit Status(std::string message) : message_(std::move(message)) {}
  std::optional<std::string> message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value)
      : value_(std::move(value)), status_(Status::Ok()) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
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

}  // namespace netgraph

#endif  // NETGRAPH_CORE_STATUS_H_
