// The GraphQL engine's cost per request phase, on the documents of data/documents.json against
// the service schema, with resolvers that return prebuilt Value trees (data/service_data.json): no
// database, so the figures are the engine's own.
//
//   Parse/<doc>            parse only
//   ParseValidate/<doc>    parse + validate, every time (what a cache miss costs before execution)
//   ExecuteCold/<doc>      Prepare + Execute with no document cache: parse, validate, plan,
//                          execute and write the JSON response
//   ExecuteCached/<doc>    Prepare (a cache hit) + Execute: what a repeated query costs
//
// Each benchmark reports allocs_per_iter (operator new calls) and, for executions, the response
// size. engine-vs-graphql-js.mjs runs this next to graphql-js.mjs and prints the ratios.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/api/service.h"
#include "core/graphql/engine.h"
#include "core/graphql/language/parser.h"
#include "core/graphql/type/build_schema.h"
#include "core/graphql/validation/validate.h"

namespace {

std::atomic<std::size_t> allocations{0};

}  // namespace

// Every allocation of the process is counted, so a benchmark can report allocations per iteration.
// (The replacement operators pair malloc with free, which GCC cannot see through.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* memory = std::malloc(size == 0 ? 1 : size)) return memory;
  throw std::bad_alloc();
}
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
#pragma GCC diagnostic pop

namespace netgraph::graphql {
namespace {

nlohmann::json ReadJson(const std::string& relative_path) {
  std::ifstream file(std::string(NETGRAPH_SOURCE_DIR) + "/" + relative_path);
  if (!file) {
    std::cerr << "cannot read " << relative_path << "\n";
    std::exit(1);
  }
  std::stringstream text;
  text << file.rdbuf();
  return nlohmann::json::parse(text.str());
}

struct Document {
  std::string name;
  std::string query;
  nlohmann::json variables;  // null when none
};

// The service engine with in-memory resolvers.
std::unique_ptr<Engine> ServiceEngine(const Value& data, std::size_t cache_capacity) {
  EngineOptions options;
  options.document_cache_capacity = cache_capacity;
  std::vector<Error> errors;
  std::unique_ptr<Engine> engine = Engine::Create(api::ServiceSchema(), options, &errors);
  if (engine == nullptr) {
    std::cerr << "the service schema does not load\n";
    std::exit(1);
  }
  for (const char* field : {"networkGraph", "getUserPortfolio", "allVouchers"}) {
    const Value value = *data.Find(field);
    Status bound =
        engine->BindResolver(std::string("Query.") + field,
                             [value](const ResolveInfo&) -> ResolverResult { return value; });
    if (!bound.ok()) {
      std::cerr << bound.message() << "\n";
      std::exit(1);
    }
  }
  return engine;
}

// The response body a transport sends.
std::string Run(Engine& engine, const Document& document) {
  ExecuteParams params;
  params.variables = document.variables.is_null() ? nullptr : &document.variables;
  return engine.Execute(*engine.Prepare(document.query), params).Body();
}

void CountAllocations(benchmark::State& state, std::size_t before) {
  state.counters["allocs_per_iter"] = benchmark::Counter(
      static_cast<double>(allocations.load() - before) / static_cast<double>(state.iterations()));
}

void BenchParse(benchmark::State& state, const Document& document) {
  const std::size_t before = allocations.load();
  for (auto _ : state) {
    Error error;
    std::unique_ptr<const ast::Document> parsed = graphql::Parse(document.query, {}, &error);
    benchmark::DoNotOptimize(parsed.get());
  }
  CountAllocations(state, before);
}

void BenchParseValidate(benchmark::State& state, const Schema* schema, const Document& document) {
  ValidationOptions options;
  const Limits limits;
  options.max_depth = limits.max_depth;
  options.max_aliases = limits.max_aliases;
  options.max_introspection_depth = limits.max_introspection_depth;
  const std::size_t before = allocations.load();
  for (auto _ : state) {
    Error error;
    std::unique_ptr<const ast::Document> parsed = graphql::Parse(document.query, {}, &error);
    std::vector<Error> errors = Validate(*schema, *parsed, options);
    benchmark::DoNotOptimize(errors.data());
  }
  CountAllocations(state, before);
}

void BenchExecute(benchmark::State& state, Engine* engine, const Document& document) {
  std::size_t bytes = Run(*engine, document).size();  // warms the cache when there is one
  const std::size_t before = allocations.load();
  for (auto _ : state) {
    std::string body = Run(*engine, document);
    benchmark::DoNotOptimize(body.data());
  }
  CountAllocations(state, before);
  state.counters["response_bytes"] = static_cast<double>(bytes);
}

}  // namespace
}  // namespace netgraph::graphql

int main(int argc, char** argv) {
  using namespace netgraph::graphql;
  benchmark::Initialize(&argc, argv);

  const Value data = Value::FromJson(ReadJson("bench/data/service_data.json"));
  static std::vector<Document> documents;
  const nlohmann::json manifest = ReadJson("bench/data/documents.json");
  for (const nlohmann::json& d : manifest["documents"]) {
    documents.push_back(Document{d["name"], d["query"], d.value("variables", nlohmann::json())});
  }
  std::vector<Error> errors;
  static std::unique_ptr<const Schema> schema =
      BuildSchema(std::string(netgraph::api::ServiceSchema()), &errors);
  static std::unique_ptr<Engine> cold = ServiceEngine(data, 0);
  static std::unique_ptr<Engine> cached = ServiceEngine(data, 1024);

  for (const Document& document : documents) {
    // A benchmark of an error response would measure the wrong thing.
    std::string body = Run(*cached, document);
    if (!body.starts_with("{\"data\"")) {
      std::cerr << document.name << " does not execute cleanly: " << body << "\n";
      return 1;
    }
    benchmark::RegisterBenchmark(("Parse/" + document.name).c_str(), BenchParse, document);
    benchmark::RegisterBenchmark(("ParseValidate/" + document.name).c_str(), BenchParseValidate,
                                 schema.get(), document);
    benchmark::RegisterBenchmark(("ExecuteCold/" + document.name).c_str(), BenchExecute, cold.get(),
                                 document);
    benchmark::RegisterBenchmark(("ExecuteCached/" + document.name).c_str(), BenchExecute,
                                 cached.get(), document);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
