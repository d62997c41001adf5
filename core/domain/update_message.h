// One update as it travels from the outbox to the subscribers: the text an appender stores in the
// outbox (graph_change.h), the outbox relay publishes on Redis under the epoch of the moment
// (outbox_relay.h, sealed by update_authenticator.h) and netgraph-ws reads, from Redis or from the
// outbox when it catches up (ws/update_feed.h). Both ends write and read it here, and nowhere else.
//
// The text is a JSON object. Three members belong to the message, and Write puts them first, so a
// subscriber sees the number before the rest:
//  - "sequence": the publisher's number for it, the outbox id (gap-free within an epoch);
//  - "epoch": the epoch it was numbered in (at most kMaxEpochBytes; core/store/outbox.h);
//  - "appendedAt": when it was appended, in microseconds since the Unix epoch on the database's
//    clock (where netgraph-ws's update lag counts from, ws/metrics.h).
// Every other member is the event: the root value of the subscription field (for kGraphChannel, a
// NetworkUpdate: graph_change.h).
//
// Reading trusts nothing (Redis is open to whoever reaches it; the envelope's MAC says who wrote a
// message, not that it is sound): the text gets the bounds of a client's JSON
// (core/bounded_json.h), so the recursive walks that follow (Value::FromJson, execution) stay
// within the stack. A member of the three that has the wrong type is not said (a missing number is
// an unnumbered update).
#ifndef NETGRAPH_CORE_DOMAIN_UPDATE_MESSAGE_H_
#define NETGRAPH_CORE_DOMAIN_UPDATE_MESSAGE_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace netgraph::domain {

inline constexpr std::size_t kMaxEpochBytes = 128;

struct UpdateMessage {
  std::optional<std::int64_t> sequence;
  std::string epoch;  // empty when the message names none
  std::optional<std::int64_t> appended_unix_us;
  // The other members: a JSON object.
  nlohmann::json event = nlohmann::json::object();

  // The message's text.
  std::string Write() const;

  // Reads `text`: at most `max_bytes` long (kResourceExhausted beyond), a JSON object no deeper
  // than a client's JSON may nest, whose epoch, if a string, is at most kMaxEpochBytes
  // (kInvalidArgument otherwise).
  static Result<UpdateMessage> Parse(
      std::string_view text, std::size_t max_bytes = std::numeric_limits<std::size_t>::max());
};

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_UPDATE_MESSAGE_H_
