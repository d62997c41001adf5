// Unpredictable bytes for identifiers the service mints on every request (trace and span ids,
// request ids), without a system call per request: each thread reads the kernel's random source
// 4 KiB at a time and hands the bytes out in order. Not for keys or secrets (those take
// RAND_bytes, as ed25519.h does): the bytes stay in memory until used.
//
// A process forked after drawing bytes never hands out its parent's remaining ones (parent and
// child would mint the same ids): the child discards every thread's buffer at fork.
#ifndef NETGRAPH_CORE_CRYPTO_RANDOM_IDS_H_
#define NETGRAPH_CORE_CRYPTO_RANDOM_IDS_H_

#include <cstdint>
#include <span>

namespace netgraph::crypto {

// Fills `out` (any length) with bytes from the kernel's CSPRNG; thread-safe; blocks only while
// the kernel's pool is not yet initialised, as getrandom(2) does.
void FillRandomIdBytes(std::span<std::uint8_t> out);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_RANDOM_IDS_H_
