// netgraphctl graphql validate|print-schema: the engine's GraphQL validation and schema printing
// for operators and for conformance tests against graphql-js. Neither needs the database.
//
// validate prints the errors of a document (syntax errors, or graphql-js's validation errors) as
// a JSON array of {"message", "locations": [{"line", "column"}]} and exits 0 when there are none
// (printing []), 1 when there are some, 2 on a bad schema (its errors go to stderr) or bad usage.
// It applies the spec's rules and graphql-js's MaxIntrospectionDepthRule only: netgraph's depth
// and alias limits are the service's policy, not part of GraphQL.
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/api/service.h"
#include "core/graphql/language/parser.h"
#include "core/graphql/type/build_schema.h"
#include "core/graphql/type/schema_printer.h"
#include "core/graphql/validation/validate.h"

namespace netgraph::cli {
namespace {

// The whole of `path`, or of stdin for "-".
Result<std::string> ReadText(const std::string& path) {
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream file(path, std::ios::binary);
    if (!file) return Status::InvalidArgument("cannot open " + path);
    text << file.rdbuf();
  }
  return text.str();
}

nlohmann::ordered_json ErrorsToJson(const std::vector<graphql::Error>& errors) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const graphql::Error& error : errors) {
    nlohmann::ordered_json item = {{"message", error.message}};
    if (!error.locations.empty()) {
      item["locations"] = nlohmann::ordered_json::array();
      for (const graphql::SourceLocation& location : error.locations) {
        item["locations"].push_back({{"line", location.line}, {"column", location.column}});
      }
    }
    list.push_back(std::move(item));
  }
  return list;
}

// The schema in `path` (the service schema when empty), or nullptr after printing why not.
std::unique_ptr<const graphql::Schema> LoadSchema(const std::string& command,
                                                  const std::string& path) {
  std::string sdl(api::ServiceSchema());
  if (!path.empty()) {
    Result<std::string> text = ReadText(path);
    if (!text.ok()) {
      std::cerr << "netgraphctl " << command << ": " << text.status().message() << "\n";
      return nullptr;
    }
    sdl = std::move(*text);
  }
  std::vector<graphql::Error> errors;
  std::unique_ptr<const graphql::Schema> schema = graphql::BuildSchema(std::move(sdl), &errors);
  for (const graphql::Error& error : errors) {
    std::cerr << (path.empty() ? "schema" : path);
    if (!error.locations.empty()) {
      std::cerr << ":" << error.locations[0].line << ":" << error.locations[0].column;
    }
    std::cerr << ": " << error.message << "\n";
  }
  return schema;
}

int Validate(Arguments& arguments) {
  std::optional<std::string> schema_path = arguments.Option("schema");
  std::vector<std::string> documents = arguments.Positionals();
  Status finished = arguments.Finish();
  if (!finished.ok() || !schema_path || documents.size() > 1) {
    std::cerr << "netgraphctl graphql validate: "
              << (!finished.ok() ? finished.message()
                                 : "usage: graphql validate --schema FILE [DOCUMENT|-]")
              << "\n";
    return kExitUsage;
  }
  std::unique_ptr<const graphql::Schema> schema = LoadSchema("graphql validate", *schema_path);
  if (schema == nullptr) return kExitUsage;
  const std::string document_path = documents.empty() ? "-" : documents[0];
  Result<std::string> source = ReadText(document_path);
  if (!source.ok()) {
    std::cerr << "netgraphctl graphql validate: " << source.status().message() << "\n";
    return kExitUsage;
  }

  std::vector<graphql::Error> errors(1);
  std::unique_ptr<const graphql::ast::Document> document =
      graphql::Parse(std::move(*source), graphql::ParseOptions{}, &errors[0]);
  if (document != nullptr) {
    graphql::ValidationOptions options;  // no max_depth, no max_aliases
    errors = graphql::Validate(*schema, *document, options);
  }
  std::cout << ErrorsToJson(errors).dump(2) << "\n";
  return errors.empty() ? kExitOk : kExitFailed;
}

int PrintSchema(Arguments& arguments) {
  std::optional<std::string> schema_path = arguments.Option("schema");
  Status finished = arguments.Finish();
  if (!finished.ok()) {
    std::cerr << "netgraphctl graphql print-schema: " << finished.message() << "\n";
    return kExitUsage;
  }
  std::unique_ptr<const graphql::Schema> schema =
      LoadSchema("graphql print-schema", schema_path.value_or(""));
  if (schema == nullptr) return kExitUsage;
  std::cout << graphql::PrintSchema(*schema) << "\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> GraphQLCommands() {
  return {{"graphql validate",
           "--schema FILE [DOCUMENT|-]",
           "validate a GraphQL document against a schema (SDL) as graphql-js does; prints the "
           "errors as JSON",
           Validate,
           {{"--schema FILE", "the schema's SDL"},
            {"DOCUMENT", "the document's file, or - (or nothing) for standard input"}},
           RunAs::kAnyone},
          {"graphql print-schema",
           "[--schema FILE]",
           "print a schema (default: the service schema) as graphql-js's printSchema does",
           PrintSchema,
           {{"--schema FILE", "the schema's SDL (default: the one the service serves)"}},
           RunAs::kAnyone}};
}

}  // namespace netgraph::cli
