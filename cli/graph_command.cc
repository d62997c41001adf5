// netgraphctl graph import FILE: adds nodes and links to the public graph from JSON
// ({"nodes":[{"id","type","labels"}], "links":[{"source","target","type"}]}; FILE "-" is stdin).
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/domain/network_graph.h"
#include "core/store/connection.h"

namespace netgraph::cli {
namespace {

Result<std::string> ReadAll(const std::string& path) {
  std::ifstream file;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) return Status::InvalidArgument("cannot open " + path);
  }
  std::ostringstream text;
  text << (path == "-" ? std::cin.rdbuf() : file.rdbuf());
  return text.str();
}

int Import(Arguments& arguments) {
  std::vector<std::string> files = arguments.Positionals();
  if (Status s = arguments.Finish(); !s.ok() || files.size() != 1) {
    std::cerr << "netgraphctl graph import: " << (s.ok() ? "name exactly one FILE" : s.message())
              << "\n";
    return kExitUsage;
  }
  Result<std::string> json = ReadAll(files[0]);
  if (!json.ok()) {
    std::cerr << "netgraphctl graph import: " << json.status().message() << "\n";
    return kExitFailed;
  }
  config::Environment env;
  store::Connection db(env.DatabaseUrl());
  Result<domain::ImportSummary> imported = domain::ImportGraph(db, *json);
  if (!imported.ok()) {
    std::cerr << "netgraphctl graph import: " << imported.status().message() << "\n";
    return kExitFailed;
  }
  std::cout << "imported " << imported->nodes << " nodes and " << imported->links << " links";
  if (imported->sequence) {
    std::cout << " (update " << *imported->sequence << ")\n";
  } else {
    std::cout << " (nothing changed)\n";
  }
  return kExitOk;
}

}  // namespace

std::vector<Command> GraphCommands() {
  return {{"graph import",
           "FILE",
           "add nodes and links from a JSON file ({nodes, links}; - is stdin)",
           Import,
           {{"FILE",
             "{\"nodes\":[{\"id\",\"type\",\"labels\"}], "
             "\"links\":[{\"source\",\"target\",\"type\"}]}, or - for standard input"}}}};
}

}  // namespace netgraph::cli
