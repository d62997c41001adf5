// The delays between reconnection attempts: exponential from `min` to `max`, each drawn at random
// from its upper half (jitter), so that many processes that lost the same Redis do not reconnect in
// lockstep.
#ifndef NETGRAPH_WS_BACKOFF_H_
#define NETGRAPH_WS_BACKOFF_H_

#include <chrono>
#include <functional>

namespace netgraph::ws {

class Backoff {
 public:
  // `random` returns a number in [0, 1); the default draws from a per-process random engine.
  Backoff(std::chrono::milliseconds min, std::chrono::milliseconds max,
          std::function<double()> random = {});

  // The delay before the next attempt: attempt k waits between half of and all of min * 2^k
  // (capped at max).
  std::chrono::milliseconds Next();
  // A connection succeeded: the next failure starts again from `min`.
  void Reset() { attempt_ = 0; }

 private:
  std::chrono::milliseconds min_;
  std::chrono::milliseconds max_;
  std::function<double()> random_;
  int attempt_ = 0;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_BACKOFF_H_
