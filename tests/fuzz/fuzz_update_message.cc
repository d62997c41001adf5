// What netgraph-ws reads from Redis, where anyone who reaches the server can publish: the
// authenticated envelope (core/domain/update_message.h), the update inside it (ws/update.h) and the
// sequencer that numbers updates and drops the relay's repeats. Input: an arbitrary message.
//
// Checked for every input:
//  - opening it never crashes, and what it accepts is the payload after a MAC that verifies;
//  - sealing it as a payload and opening that gives it back; the same sealed message is refused on
//    another channel and with any byte of its MAC changed;
//  - reading it as an update gives a JSON object, or an error;
//  - the sequencer, fed numbers taken from the input, stamps strictly increasing sequences and
//    never lets a number it saw lately through twice.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <set>
#include <string>
#include <string_view>

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

  Result<netgraph::ws::PublishedUpdate> update = netgraph::ws::ParseUpdate(input, 64 * 1024);
  if (update.ok() && !update->event.is_object()) Fail("an update that is not an object", input);

  netgraph::ws::Sequencer sequencer;
  std::set<std::int64_t> seen;
  std::int64_t last_stamp = 0;
  for (std::size_t i = 0; i + 1 < size && i < 512; i += 2) {
    std::optional<std::int64_t> number;
    if (data[i] != 0) number = data[i + 1];
    std::optional<netgraph::ws::UpdateStamp> stamp = sequencer.Next(number);
    if (!stamp) {
      if (!number || seen.count(*number) == 0) Fail("dropped an update never seen", input);
      continue;
    }
    if (number && seen.count(*number) != 0) Fail("let a repeat through", input);
    if (number) seen.insert(*number);
    if (stamp->sequence <= last_stamp) Fail("a sequence that does not grow", input);
    last_stamp = stamp->sequence;
  }
  return 0;
}
