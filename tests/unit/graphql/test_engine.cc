#include "tests/unit/graphql/test_engine.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "core/graphql/type/build_schema.h"

namespace netgraph::graphql::test {

std::string ReadSourceFile(std::string_view relative_path) {
  std::ifstream file(std::string(NETGRAPH_SOURCE_DIR) + "/" + std::string(relative_path));
  EXPECT_TRUE(file.good()) << relative_path;
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::unique_ptr<const Schema> MustBuildSchema(std::string_view sdl) {
  std::vector<Error> errors;
  std::unique_ptr<const Schema> schema = BuildSchema(std::string(sdl), &errors);
  EXPECT_NE(schema, nullptr) << (errors.empty() ? "" : errors[0].message);
  return schema;
}

std::unique_ptr<Engine> MustCreate(std::string_view sdl, const EngineOptions& options) {
  std::vector<Error> errors;
  std::unique_ptr<Engine> engine = Engine::Create(sdl, options, &errors);
  EXPECT_NE(engine, nullptr) << (errors.empty() ? "" : errors[0].message);
  return engine;
}

Request MakeRequest(std::string query, std::string variables) {
  Request request;
  request.query = std::move(query);
  request.variables = std::move(variables);
  return request;
}

ExecutionResult RunRequest(Engine& engine, const Request& request) {
  std::shared_ptr<const PreparedDocument> document = engine.Prepare(request.query);
  nlohmann::json variables;
  ExecuteParams params;
  if (!request.variables.empty()) {
    variables = nlohmann::json::parse(request.variables);
    params.variables = &variables;
  }
  if (request.operation_name) params.operation_name = *request.operation_name;
  params.root_value = request.root_value;
  params.context = request.context;
  ExecutionResult result = engine.Execute(*document, params);
  // Every body is JSON.
  EXPECT_FALSE(nlohmann::json::parse(result.Body(), nullptr, false).is_discarded())
      << result.Body();
  return result;
}

std::string Body(Engine& engine, std::string_view query, Value root_value,
                 std::string_view variables) {
  Request request;
  request.query = std::string(query);
  request.variables = std::string(variables);
  request.root_value = std::move(root_value);
  return RunRequest(engine, request).Body();
}

Value Json(std::string_view json) { return Value::FromJson(nlohmann::json::parse(json)); }

}  // namespace netgraph::graphql::test
