#include "ws/backoff.h"

#include <algorithm>
#include <random>
#include <utility>

namespace netgraph::ws {

Backoff::Backoff(std::chrono::milliseconds min, std::chrono::milliseconds max,
                 std::function<double()> random)
    : min_(min), max_(std::max(min, max)), random_(std::move(random)) {
  if (!random_) {
    random_ = [engine = std::minstd_rand(std::random_device{}())]() mutable {
      return std::uniform_real_distribution<double>(0.0, 1.0)(engine);
    };
  }
}

std::chrono::milliseconds Backoff::Next() {
  long long ceiling = min_.count();
  for (int i = 0; i < attempt_ && ceiling < max_.count(); ++i) ceiling *= 2;
  ceiling = std::min<long long>(ceiling, max_.count());
  if (ceiling < max_.count()) ++attempt_;
  double fraction = 0.5 + 0.5 * random_();
  return std::chrono::milliseconds(static_cast<long long>(static_cast<double>(ceiling) * fraction));
}

}  // namespace netgraph::ws
