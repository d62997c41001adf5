// Instants as the API shows them (the DateTime scalar): RFC 3339 in UTC with millisecond
// precision, e.g. "2026-11-21T09:30:00.000Z". The store hands instants over as microseconds since
// the Unix epoch.
#ifndef NETGRAPH_CORE_DOMAIN_DATE_TIME_H_
#define NETGRAPH_CORE_DOMAIN_DATE_TIME_H_

#include <chrono>
#include <cstdint>
#include <string>

namespace netgraph::domain {

using Timestamp = std::chrono::sys_time<std::chrono::microseconds>;

inline Timestamp FromEpochMicros(std::int64_t micros) {
  return Timestamp(std::chrono::microseconds(micros));
}

// Truncates to milliseconds.
std::string FormatDateTime(Timestamp instant);

// An instant an operator typed: a duration from now ("90s", "30m", "12h", "7d") becomes that
// instant in RFC 3339; anything else is returned as it is, for PostgreSQL to read as a timestamptz
// (an RFC 3339 instant, "now", ...) or refuse.
std::string InstantFromNow(const std::string& text);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_DATE_TIME_H_
