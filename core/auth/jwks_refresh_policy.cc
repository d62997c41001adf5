#include "core/auth/internal/jwks_refresh_policy.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace netgraph::auth {

namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// Larger ages are clamped by the policy anyway; this only keeps the arithmetic in range.
constexpr std::int64_t kLongestAgeSeconds = std::int64_t{1} << 31;

}  // namespace

std::optional<std::chrono::seconds> MaxAgeOf(std::string_view cache_control) {
  std::optional<std::chrono::seconds> max_age;
  while (!cache_control.empty()) {
    std::size_t comma = cache_control.find(',');
    std::string_view directive = Trim(cache_control.substr(0, comma));
    cache_control = comma == std::string_view::npos ? "" : cache_control.substr(comma + 1);
    if (EqualsIgnoringCase(directive, "no-store") || EqualsIgnoringCase(directive, "no-cache")) {
      return std::chrono::seconds(0);
    }
    std::size_t equals = directive.find('=');
    if (equals == std::string_view::npos ||
        !EqualsIgnoringCase(Trim(directive.substr(0, equals)), "max-age")) {
      continue;
    }
    std::string_view value = Trim(directive.substr(equals + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    if (value.empty() || !std::all_of(value.begin(), value.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c));
        })) {
      continue;
    }
    std::int64_t seconds = 0;
    for (char digit : value) {
      seconds = std::min(seconds * 10 + (digit - '0'), kLongestAgeSeconds);
    }
    max_age = std::chrono::seconds(seconds);
  }
  return max_age;
}

JwksRefreshPolicy::JwksRefreshPolicy(std::chrono::seconds min_interval,
                                     std::chrono::seconds max_interval)
    : min_interval_(min_interval), max_interval_(max_interval) {}

bool JwksRefreshPolicy::FetchDue(TimePoint now) const {
  if (!last_attempt_) return true;
  if (now >= next_fetch_) return true;
  return unknown_kid_ && now - *last_attempt_ >= min_interval_;
}

JwksRefreshPolicy::TimePoint JwksRefreshPolicy::NextDue(TimePoint now) const {
  if (FetchDue(now)) return now;
  // Not due: there was an attempt, and the schedule lies ahead.
  return unknown_kid_ ? std::min(next_fetch_, *last_attempt_ + min_interval_) : next_fetch_;
}

void JwksRefreshPolicy::FetchStarted(TimePoint now) {
  last_attempt_ = now;
  unknown_kid_ = false;
}

void JwksRefreshPolicy::FetchSucceeded(TimePoint now, std::optional<std::chrono::seconds> max_age) {
  next_fetch_ = now + std::clamp(max_age.value_or(max_interval_), min_interval_, max_interval_);
}

void JwksRefreshPolicy::FetchFailed(TimePoint now) { next_fetch_ = now + min_interval_; }

}  // namespace netgraph::auth
