// Helpers for the engine's tests: files of the source tree, a schema or an engine from SDL,
// one-call requests.
#ifndef NETGRAPH_TESTS_UNIT_GRAPHQL_TEST_ENGINE_H_
#define NETGRAPH_TESTS_UNIT_GRAPHQL_TEST_ENGINE_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/graphql/engine.h"
#include "core/graphql/type/schema.h"
#include "core/graphql/utilities/value.h"

namespace netgraph::graphql::test {

// A file of the source tree, e.g. "core/api/schema.graphql".
std::string ReadSourceFile(std::string_view relative_path);

// The schema `sdl` builds; fails the test (and returns null) when it does not build.
std::unique_ptr<const Schema> MustBuildSchema(std::string_view sdl);
// The engine for `sdl`; fails the test when the schema does not load.
std::unique_ptr<Engine> MustCreate(std::string_view sdl, const EngineOptions& options = {});

struct Request {
  std::string query;
  std::string variables;  // JSON text; empty for none
  std::optional<std::string> operation_name;
  Value root_value;
  RequestContext* context = nullptr;
};

Request MakeRequest(std::string query, std::string variables = "");

// Prepare + Execute.
ExecutionResult RunRequest(Engine& engine, const Request& request);
// The response body of `query` run against `root_value`.
std::string Body(Engine& engine, std::string_view query, Value root_value = Value(),
                 std::string_view variables = "");

// A Value from JSON text.
Value Json(std::string_view json);

}  // namespace netgraph::graphql::test

#endif  // NETGRAPH_TESTS_UNIT_GRAPHQL_TEST_ENGINE_H_
