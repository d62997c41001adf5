#include "ws/keepalive.h"

namespace netgraph::ws {

Keepalive::Due Keepalive::Check(Clock::time_point now) {
  if (pinged_) return now - pinged_at_ >= pong_timeout_ ? Due::kHangUp : Due::kNothing;
  if (now - confirmed_at_ < ping_interval_) return Due::kNothing;
  pinged_ = true;
  pinged_at_ = now;
  return Due::kPing;
}

void Keepalive::Confirmed(Clock::time_point now) {
  confirmed_at_ = now;
  pinged_ = false;
}

}  // namespace netgraph::ws
