#include "daemon/trace_context.h"

#include <cstdint>

#include "core/crypto/hex.h"
#include "core/crypto/random_ids.h"

namespace netgraph::daemon {
namespace {

bool IsLowerHex(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

bool IsAllZeros(std::string_view text) {
  return text.find_first_not_of('0') == std::string_view::npos;
}

// `bytes` random bytes as lowercase hex, never all zeros (an all-zero id is invalid).
std::string RandomId(std::size_t bytes) {
  std::uint8_t random[16] = {};
  do {
    crypto::FillRandomIdBytes(std::span(random, bytes));
  } while (IsAllZeros(crypto::HexEncode(std::span(random, bytes))));
  return crypto::HexEncode(std::span(random, bytes));
}

}  // namespace

std::string NewSpanId() { return RandomId(8); }

std::string TraceContext::Header() const { return "00-" + trace_id + "-" + span_id + "-" + flags; }

TraceContext JoinTrace(std::string_view traceparent) {
  TraceContext context;
  context.span_id = NewSpanId();
  // version "-" trace-id "-" parent-id "-" flags: 2 + 1 + 32 + 1 + 16 + 1 + 2.
  constexpr std::size_t kLength = 55;
  const std::string_view version = traceparent.substr(0, 2);
  const bool valid_length = version == "00"
                                ? traceparent.size() == kLength
                                : traceparent.size() == kLength ||
                                      (traceparent.size() > kLength && traceparent[kLength] == '-');
  if (traceparent.size() >= kLength && valid_length && IsLowerHex(version) && version != "ff" &&
      traceparent[2] == '-' && traceparent[35] == '-' && traceparent[52] == '-') {
    const std::string_view trace_id = traceparent.substr(3, 32);
    const std::string_view parent_id = traceparent.substr(36, 16);
    const std::string_view flags = traceparent.substr(53, 2);
    if (IsLowerHex(trace_id) && !IsAllZeros(trace_id) && IsLowerHex(parent_id) &&
        !IsAllZeros(parent_id) && IsLowerHex(flags)) {
      context.trace_id = trace_id;
      context.parent_id = parent_id;
      context.flags = flags;
      return context;
    }
  }
  context.trace_id = RandomId(16);
  context.flags = "00";
  return context;
}

}  // namespace netgraph::daemon
