#include "core/throttled_log.h"

#include <utility>

namespace netgraph::log {

namespace {

constexpr std::string_view kOtherReasons = "other";

}  // namespace

ThrottledLog::ThrottledLog(std::string subject, std::chrono::seconds interval, Writer write,
                           Clock clock)
    : subject_(std::move(subject)),
      interval_(interval),
      write_(std::move(write)),
      clock_(clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); })) {}

void ThrottledLog::Record(std::string_view reason) {
  std::lock_guard lock(mutex_);
  const std::chrono::steady_clock::time_point now = clock_();
  if (interval_start_ && now - *interval_start_ < interval_) {
    auto counted = suppressed_.find(reason);
    if (counted == suppressed_.end()) {
      counted = suppressed_.size() < kMaxReasons
                    ? suppressed_.emplace(std::string(reason), 0).first
                    : suppressed_.try_emplace(std::string(kOtherReasons), 0).first;
    }
    ++counted->second;
    return;
  }
  WriteSummaryLocked();
  interval_start_ = now;
  write_(subject_ + ": " + std::string(reason));
}

void ThrottledLog::WriteSummaryLocked() {
  if (suppressed_.empty()) return;
  std::int64_t total = 0;
  std::string counts;
  for (const auto& [reason, count] : suppressed_) {
    total += count;
    counts += (counts.empty() ? "" : ", ") + reason + " x" + std::to_string(count);
  }
  write_(subject_ + ": " + std::to_string(total) + " more, not logged one by one (one per " +
         std::to_string(interval_.count()) + " s): " + counts);
  suppressed_.clear();
}

}  // namespace netgraph::log
