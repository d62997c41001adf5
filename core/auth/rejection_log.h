// Log lines for rejected credentials that a flood of bad tokens cannot turn into a flood of lines.
//
// Within each interval the first rejection is written in full; the others are only counted, per
// reason. The first rejection after the interval has passed writes one summary line with those
// counts ("rejected credentials: 199 more, not logged one by one (one per 60 s): token expired
// x150, ...") and then itself in full, starting the next interval. So at most two lines per
// interval reach the log, however many tokens arrive. There is no timer (a pool worker has none):
// the counts wait for the next rejection.
//
// Reasons may carry text from the token (verifier messages quote up to 40 characters of a header),
// so at most kMaxReasons distinct reasons are counted per interval; the rest count as "other".
//
// Thread-safety: Record may be called from many threads at once.
#ifndef NETGRAPH_CORE_AUTH_REJECTION_LOG_H_
#define NETGRAPH_CORE_AUTH_REJECTION_LOG_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace netgraph::auth {

class RejectionLog {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  using Writer = std::function<void(std::string_view line)>;

  static constexpr std::size_t kMaxReasons = 16;

  // `clock` and `write` default to std::chrono::steady_clock and log::Info.
  explicit RejectionLog(std::chrono::seconds interval, Clock clock = nullptr,
                        Writer write = nullptr);

  // Notes one rejection for `reason` (a TokenVerifier or BearerToken message).
  void Record(std::string_view reason);

 private:
  void WriteSummaryLocked();

  const std::chrono::seconds interval_;
  const Clock clock_;
  const Writer write_;
  std::mutex mutex_;
  std::optional<std::chrono::steady_clock::time_point> interval_start_;
  std::map<std::string, std::int64_t, std::less<>> suppressed_;  // reason -> count
};

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_REJECTION_LOG_H_
