// Variable coercion (GraphQL spec, "Coercing Variable Values"): arbitrary JSON variables for an
// operation that declares a variable of every kind of input type (scalars, an enum, input objects
// with defaults and nesting, lists, non-null wrappers). Input: the variables as JSON text.
//
// Checked for every input that is a JSON object:
//  - the answer is a request error (errors with a message and a location, but for the one that
//    says there were too many; no data) or data;
//  - coercion is idempotent: a resolver returns the coerced arguments as JSON, and sending those
//    back as variables gives the same arguments again;
//  - the same request on an engine that caches no documents gives the same body.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/graphql/engine.h"

namespace {

using netgraph::graphql::Engine;
using netgraph::graphql::EngineOptions;
using netgraph::graphql::ExecuteParams;
using netgraph::graphql::ExecutionResult;
using netgraph::graphql::ResolveInfo;
using netgraph::graphql::ResolverResult;
using netgraph::graphql::Value;

constexpr std::string_view kSchema = R"(
enum Color { RED GREEN BLUE }
input Point { x: Float! y: Float! = 0 label: String }
input Shape {
  kind: Color = RED
  points: [Point!]
  tags: [[String]]
  nested: Shape
  weight: Int
}
type Query {
  echo(i: Int, f: Float, s: String, b: Boolean, id: ID, c: Color, p: Point, sh: Shape,
       li: [Int], ls: [String!]!, nn: Int!, d: Int = 7, dl: [Color] = [RED, BLUE]): String
}
)";

constexpr std::string_view kQuery = R"(
query Echo($i: Int, $f: Float, $s: String, $b: Boolean, $id: ID, $c: Color, $p: Point,
           $sh: Shape, $li: [Int], $ls: [String!]! = ["x"], $nn: Int! = 1, $d: Int,
           $dl: [Color]) {
  echo(i: $i, f: $f, s: $s, b: $b, id: $id, c: $c, p: $p, sh: $sh, li: $li, ls: $ls, nn: $nn,
       d: $d, dl: $dl)
}
)";

// The variable of each argument, as the query names them.
constexpr const char* kArguments[] = {"i",  "f",  "s",  "b",  "id", "c", "p",
                                      "sh", "li", "ls", "nn", "d",  "dl"};

[[noreturn]] void Fail(const std::string& what, const std::string& detail) {
  std::cerr << what << "\n" << detail << "\n";
  std::abort();
}

std::unique_ptr<Engine> EchoEngine(std::size_t cache_capacity) {
  EngineOptions options;
  options.document_cache_capacity = cache_capacity;
  std::vector<netgraph::graphql::Error> errors;
  std::unique_ptr<Engine> engine = Engine::Create(kSchema, options, &errors);
  if (engine == nullptr) Fail("the schema does not load", errors.at(0).message);
  netgraph::Status bound =
      engine->BindResolver("Query.echo", [](const ResolveInfo& info) -> ResolverResult {
        nlohmann::json arguments = nlohmann::json::object();
        for (const char* name : kArguments) {
          if (const Value* value = info.arguments.Find(name)) arguments[name] = value->ToJson();
        }
        return Value::String(arguments.dump());
      });
  if (!bound.ok()) Fail("bind", bound.message());
  return engine;
}

ExecutionResult Run(Engine& engine, const nlohmann::json& variables) {
  ExecuteParams params;
  params.variables = &variables;
  return engine.Execute(*engine.Prepare(kQuery), params);
}

// The echoed arguments of a successful run, or null for a request error.
nlohmann::json Echoed(const ExecutionResult& result, const std::string& input) {
  nlohmann::json body = nlohmann::json::parse(result.Body(), nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) Fail("a body that is not a JSON object", result.Body());
  if (!result.has_data) {
    if (!body.contains("errors") || !body["errors"].is_array() || body["errors"].empty())
      Fail("a request error without errors", result.Body() + "\n" + input);
    // Each error names its variable's location, except graphql-js's last word when there are too
    // many (core/graphql/execution/variables.cc), which belongs to no variable.
    const nlohmann::json& errors = body["errors"];
    for (std::size_t i = 0; i < errors.size(); ++i) {
      const nlohmann::json& error = errors[i];
      if (!error.contains("message") || !error["message"].is_string())
        Fail("a variable error without a message", result.Body());
      const bool limit_reached = i + 1 == errors.size() &&
                                 error["message"].get<std::string>().starts_with("Too many errors");
      if (!limit_reached && !error.contains("locations"))
        Fail("a variable error without a location", result.Body());
    }
    return nullptr;
  }
  if (body.contains("errors")) Fail("a coerced request that failed", result.Body() + "\n" + input);
  const nlohmann::json& echo = body["data"]["echo"];
  if (!echo.is_string()) Fail("echo is not a string", result.Body());
  return nlohmann::json::parse(echo.get<std::string>());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::unique_ptr<Engine> cached = EchoEngine(16);
  static std::unique_ptr<Engine> uncached = EchoEngine(0);

  const std::string input(reinterpret_cast<const char*>(data), size);
  // As the HTTP adapter takes them: a JSON object nested at most 64 deep.
  nlohmann::json variables = nlohmann::json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (!variables.is_object() || input.size() > 4096) return 0;

  ExecutionResult first = Run(*cached, variables);
  nlohmann::json echoed = Echoed(first, input);
  if (Run(*uncached, variables).Body() != first.Body()) Fail("the document cache changes", input);
  if (echoed.is_null()) return 0;

  // The coerced values are valid variables themselves, and coerce to themselves.
  ExecutionResult again = Run(*cached, echoed);
  nlohmann::json echoed_again = Echoed(again, echoed.dump());
  if (echoed_again != echoed) {
    Fail("coercion is not idempotent", echoed.dump() + "\n" + echoed_again.dump());
  }
  return 0;
}
