// netgraphctl rounds create|list|close: the token's investment rounds (core/domain/round_admin.h).
#include <iostream>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/domain/date_time.h"
#include "core/domain/round_admin.h"
#include "core/store/connection.h"

namespace netgraph::cli {
namespace {

std::string DatabaseUrl() {
  config::Environment env;
  return env.DatabaseUrl();
}

int Create(Arguments& arguments) {
  domain::RoundRequest request;
  std::optional<std::string> name = arguments.Option("name");
  std::optional<std::string> price = arguments.Option("price");
  std::optional<std::string> target = arguments.Option("target");
  request.opens = arguments.Option("opens");
  request.closes = arguments.Option("closes");
  Status finished = arguments.Finish();
  if (!finished.ok() || !name || !price || !target) {
    std::cerr << "netgraphctl rounds create: "
              << (finished.ok() ? "--name, --price and --target are required" : finished.message())
              << "\n";
    return kExitUsage;
  }
  request.name = *name;
  request.price = *price;
  request.target = *target;
  store::Connection db(DatabaseUrl());
  Result<store::RoundRow> created = domain::CreateRound(db, request);
  if (!created.ok()) {
    std::cerr << "netgraphctl rounds create: " << created.status().message() << "\n";
    return created.status().code() == StatusCode::kInvalidArgument ? kExitUsage : kExitFailed;
  }
  std::cout << "created round " << created->name << " (id " << created->id << ")\n";
  return kExitOk;
}

int List(Arguments& arguments) {
  if (Status s = arguments.Finish(); !s.ok()) {
    std::cerr << "netgraphctl rounds list: " << s.message() << "\n";
    return kExitUsage;
  }
  store::Connection db(DatabaseUrl());
  Result<std::vector<store::RoundSchedule>> rounds = domain::ListRounds(db);
  if (!rounds.ok()) {
    std::cerr << "netgraphctl rounds list: " << rounds.status().message() << "\n";
    return kExitFailed;
  }
  for (const store::RoundSchedule& r : *rounds) {
    std::cout << r.round.id << "\t" << r.round.name << "\t" << r.price << "\t" << r.target << "\t"
              << domain::FormatDateTime(domain::FromEpochMicros(r.opens_at_us)) << "\t"
              << (r.closes_at_us ? domain::FormatDateTime(domain::FromEpochMicros(*r.closes_at_us))
                                 : "-")
              << (r.current ? "\tcurrent" : "") << "\n";
  }
  return kExitOk;
}

int Close(Arguments& arguments) {
  std::optional<std::string> at = arguments.Option("at");
  std::vector<std::string> names = arguments.Positionals();
  if (Status s = arguments.Finish(); !s.ok() || names.size() != 1) {
    std::cerr << "netgraphctl rounds close: " << (s.ok() ? "name exactly one round" : s.message())
              << "\n";
    return kExitUsage;
  }
  store::Connection db(DatabaseUrl());
  Result<store::RoundRow> closed = domain::CloseRound(db, names[0], at);
  if (!closed.ok()) {
    std::cerr << "netgraphctl rounds close: " << closed.status().message() << "\n";
    return kExitFailed;
  }
  std::cout << "closed round " << closed->name << "\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> RoundCommands() {
  return {
      {"rounds create",
       "--name N --price P --target T [--opens T] [--closes T]",
       "create an investment round; the open round that opened last is the current one",
       Create,
       {{"--name N",
         "the round's name, shown as investmentData.currentRound (1 to 100 characters)"},
        {"--price P", "the price of one token in the quote currency, e.g. 0.05"},
        {"--target T", "the amount the round means to raise in the quote currency, e.g. 500000"},
        {"--opens T",
         "when it opens: RFC 3339, or a time from now (90s, 30m, 12h, 7d); now if "
         "unset"},
        {"--closes T", "when it closes, in the same forms; never if unset"}}},
      {"rounds list", "",
       "list the rounds: id, name, price, target, opens, closes, and which is current", List},
      {"rounds close",
       "NAME [--at T]",
       "close an open round, now or at a time (RFC 3339, or 90s, 30m, 12h, 7d from now)",
       Close,
       {{"NAME", "the round's name"}, {"--at T", "when it closes; now if unset"}}},
  };
}

}  // namespace netgraph::cli
