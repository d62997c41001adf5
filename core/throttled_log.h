// Log lines for events that a flood cannot turn into a flood of lines (rejected credentials,
// refused Redis messages): an attacker who can cause the event must not be able to fill the disk or
// bury other lines.
//
// Within each interval the first event is written in full ("<subject>: <reason>"); the others are
// only counted, per reason. The first event after the interval has passed writes one summary line
// with those counts ("<subject>: 199 more, not logged one by one (one per 60 s): token expired
// x150, ...") and then itself in full, starting the next interval. So at most two lines per
// interval reach the log, however many events arrive. There is no timer (a pool worker has none):
// the counts wait for the next event.
//
// Reasons may carry text from the input (verifier messages quote up to 40 characters of a header),
// so at most kMaxReasons distinct reasons are counted per interval; the rest count as "other".
//
// Thread-safety: Record may be called from many threads at once.
#ifndef NETGRAPH_CORE_THROTTLED_LOG_H_
#define NETGRAPH_CORE_THROTTLED_LOG_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace netgraph::log {

class ThrottledLog {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  using Writer = std::function<void(std::string_view line)>;

  static constexpr std::size_t kMaxReasons = 16;

  // Lines start with `subject` and go to `write` (e.g. log::Warn); `clock` defaults to
  // std::chrono::steady_clock.
  ThrottledLog(std::string subject, std::chrono::seconds interval, Writer write,
               Clock clock = nullptr);

  // Notes one event for `reason`.
  void Record(std::string_view reason);

 private:
  void WriteSummaryLocked();

  const std::string subject_;
  const std::chrono::seconds interval_;
  const Writer write_;
  const Clock clock_;
  std::mutex mutex_;
  std::optional<std::chrono::steady_clock::time_point> interval_start_;
  std::map<std::string, std::int64_t, std::less<>> suppressed_;  // reason -> count
};

}  // namespace netgraph::log

#endif  // NETGRAPH_CORE_THROTTLED_LOG_H_
