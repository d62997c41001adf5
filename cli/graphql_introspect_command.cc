// netgraphctl graphql introspect: runs an introspection query (graphql-js's getIntrospectionQuery,
// say) against the service schema with introspection on, whatever NETGRAPH_INTROSPECTION says,
// and prints the response JSON. The conformance tests rebuild the schema from it with graphql-js.
// Introspection needs no resolvers, so no database is involved.
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/api/service.h"
#include "core/graphql/engine.h"

namespace netgraph::cli {
namespace {

int Introspect(Arguments& arguments) {
  std::optional<std::string> operation_name = arguments.Option("operation-name");
  std::vector<std::string> files = arguments.Positionals();
  Status finished = arguments.Finish();
  if (!finished.ok() || files.size() > 1) {
    std::cerr << "netgraphctl graphql introspect: "
              << (!finished.ok() ? finished.message()
                                 : "usage: graphql introspect [--operation-name NAME] [QUERY|-]")
              << "\n";
    return kExitUsage;
  }
  std::string query;
  if (files.empty() || files[0] == "-") {
    query.assign(std::istreambuf_iterator<char>(std::cin), {});
  } else {
    std::ifstream file(files[0], std::ios::binary);
    if (!file) {
      std::cerr << "netgraphctl graphql introspect: cannot open " << files[0] << "\n";
      return kExitUsage;
    }
    query.assign(std::istreambuf_iterator<char>(file), {});
  }

  graphql::EngineOptions options;
  options.introspection = true;
  options.limits.max_document_bytes = query.size();  // an operator's query, not a client's
  std::vector<graphql::Error> errors;
  std::unique_ptr<graphql::Engine> engine =
      graphql::Engine::Create(api::ServiceSchema(), options, &errors);
  if (engine == nullptr) {
    for (const graphql::Error& error : errors) std::cerr << "schema: " << error.message << "\n";
    return kExitFailed;
  }
  graphql::ExecuteParams params;
  if (operation_name) params.operation_name = *operation_name;
  graphql::ExecutionResult result = engine->Execute(*engine->Prepare(query), params);
  std::cout << result.Body() << "\n";
  return result.has_data && result.errors.empty() ? kExitOk : kExitFailed;
}

}  // namespace

std::vector<Command> GraphQLIntrospectCommands() {
  return {{"graphql introspect",
           "[--operation-name NAME] [QUERY|-]",
           "run an introspection query (from a file or stdin) against the service schema and "
           "print the response JSON",
           Introspect,
           {{"--operation-name NAME", "the operation to run when the document has several"},
            {"QUERY", "the query's file, or - (or nothing) for standard input"}},
           RunAs::kAnyone}};
}

}  // namespace netgraph::cli
