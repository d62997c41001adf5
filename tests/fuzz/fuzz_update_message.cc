// What netgraph-ws reads from Redis, where anyone who reaches the server can publish: the
// authenticated envelope (core/domain/update_authenticator.h), the update inside it
// (core/domain/update_message.h) and the sequencer (ws/update.h) that numbers updates and drops
// the relay's repeats. Input: an arbitrary message.
//
// Checked for every input:
//  - opening it never crashes, and what it accepts is the payload after a MAC that verifies;
//  - sealing it as a payload and opening that gives it back; the same sealed message is refused on
//    another channel and with any byte of its MAC changed;
//  - reading it as an update gives a JSON object, or an error; what it reads writes a text that
//    reads back the same;
//  - the sequencer places each update as its contract says (next, repeat, after a gap, from where
//    the epoch followed was last followed or delivered), and stamps strictly increasing sequences
//    that skip after it follows a new epoch.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "core/domain/update_authenticator.h"
#include "core/domain/update_message.h"
#include "ws/update.h"

namespace {

using netgraph::Result;
using netgraph::domain::UpdateAuthenticator;

constexpr std::string_view kChannel = "netgraph:graph";

[[noreturn]] void Fail(const std::string& what, std::string_view detail) {
  std::cerr << what << "\n" << detail << "\n";
  std::abort();
}

const UpdateAuthenticator& Authenticator() {
  static const UpdateAuthenticator authenticator =
      UpdateAuthenticator::FromHexKey(std::string(64, 'a')).value();
  return authenticator;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const UpdateAuthenticator& authenticator = Authenticator();

  Result<std::string_view> opened = authenticator.Open(kChannel, input);
  if (opened.ok() && (input.size() < 65 || *opened != input.substr(65))) {
    Fail("an accepted message whose payload is not what follows the MAC", input);
  }

  const std::string sealed = authenticator.Seal(kChannel, input);
  Result<std::string_view> round_trip = authenticator.Open(kChannel, sealed);
  if (!round_trip.ok() || *round_trip != input) Fail("a sealed payload does not open", input);
  if (authenticator.Open("netgraph:other", sealed).ok()) Fail("accepted on another channel", input);
  std::string forged = sealed;
  const std::size_t at = size % 64;
  forged[at] = forged[at] == '0' ? '1' : '0';
  if (authenticator.Open(kChannel, forged).ok()) Fail("accepted with a changed MAC", input);

  using netgraph::domain::UpdateMessage;
  Result<UpdateMessage> update = UpdateMessage::Parse(input, 64 * 1024);
  if (update.ok()) {
    if (!update->event.is_object()) Fail("an update that is not an object", input);
    const std::string written = update->Write();
    Result<UpdateMessage> again = UpdateMessage::Parse(written);
    if (!again.ok() || again->sequence != update->sequence || again->epoch != update->epoch ||
        again->appended_unix_us != update->appended_unix_us || again->event != update->event ||
        again->Write() != written) {
      Fail("an update that does not read back as written", input);
    }
  }

  // The sequencer against a model of its contract (ws/update.h): byte pairs either follow epoch
  // "a" or "b" from a number, as the feed does once the outbox confirms an epoch, or place a number
  // and deliver it unless it is a repeat, as the feed does with a message of the epoch followed.
  netgraph::ws::Sequencer sequencer;
  bool following = false;
  std::string epoch;
  std::int64_t last = 0;
  std::int64_t last_stamp = 0;
  bool skip_due = false;
  for (std::size_t i = 0; i + 1 < size && i < 512; i += 2) {
    const std::int64_t number = data[i + 1];
    if ((data[i] & 3) == 3) {
      const std::string named = (data[i] & 4) != 0 ? "b" : "a";
      if (following && named != epoch) skip_due = true;
      sequencer.Follow(named, number);
      following = true;
      epoch = named;
      last = number;
      continue;
    }
    using Place = netgraph::ws::Sequencer::Place;
    const Place expected = !following           ? Place::kNext
                           : number <= last     ? Place::kRepeat
                           : number == last + 1 ? Place::kNext
                                                : Place::kAfterGap;
    if (sequencer.PlaceOf(number) != expected) Fail("a misplaced update", input);
    if (expected == Place::kRepeat) continue;
    netgraph::ws::UpdateStamp stamp = sequencer.Deliver(number);
    if (stamp.sequence <= last_stamp) Fail("a sequence that does not grow", input);
    if (skip_due && stamp.sequence < last_stamp + 2) Fail("a new epoch without a skip", input);
    skip_due = false;
    last_stamp = stamp.sequence;
    following = true;
    last = number;
  }
  return 0;
}
