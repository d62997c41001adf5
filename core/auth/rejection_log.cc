#include "core/auth/rejection_log.h"

#include <utility>

#include "core/log.h"

namespace netgraph::auth {

namespace {

constexpr std::string_view kOtherReasons = "other";

}  // namespace

RejectionLog::RejectionLog(std::chrono::seconds interval, Clock clock, Writer write)
    : interval_(interval),
      clock_(clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); })),
      write_(write ? std::move(write) : Writer([](std::string_view line) { log::Info(line); })) {}

void RejectionLog::Record(std::string_view reason) {
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
  write_("rejected credentials: " + std::string(reason));
}

void RejectionLog::WriteSummaryLocked() {
  if (suppressed_.empty()) return;
  std::int64_t total = 0;
  std::string counts;
  for (const auto& [reason, count] : suppressed_) {
    total += count;
    counts += (counts.empty() ? "" : ", ") + reason + " x" + std::to_string(count);
  }
  write_("rejected credentials: " + std::to_string(total) +
         " more, not logged one by one (one per " + std::to_string(interval_.count()) +
         " s): " + counts);
  suppressed_.clear();
}

}  // namespace netgraph::auth
