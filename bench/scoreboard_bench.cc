// What the pool's scoreboard (fcgi/pool/scoreboard.h) costs a worker per request: the three calls
// fcgi/pool/worker.cc makes around a `{ __typename }` request, on a real scoreboard in shared
// memory. bench/http-bench.mjs divides this time by the CPU that request costs end to end (nginx
// and the pool, measured in the same run), which is the scoreboard's share of throughput on a
// machine whose CPUs are saturated: a steadier figure than comparing two pools' req/s, which differ
// by more than the cost itself from one start to the next.
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>

#include "fcgi/pool/scoreboard.h"

namespace {

using netgraph::fcgi::FinishedRequest;
using netgraph::fcgi::OperationKind;
using netgraph::fcgi::Scoreboard;
using netgraph::fcgi::SharedMemory;
using netgraph::fcgi::SlotState;

void BM_ScoreboardPerRequest(benchmark::State& state) {
  std::unique_ptr<SharedMemory> memory =
      SharedMemory::Create(SharedMemory::Bytes({Scoreboard::SharedBytes()})).value();
  std::unique_ptr<Scoreboard> scoreboard = Scoreboard::Create(*memory).value();
  scoreboard->Attach(SlotState::kIdle);
  FinishedRequest finished;
  finished.kind = OperationKind::kQuery;
  finished.root_field = "__typename";
  finished.outcome = "ok";
  finished.status = 200;
  finished.duration = std::chrono::microseconds(30);
  for (auto _ : state) {
    scoreboard->BeginRequest("/graphql", "5f1c0e9a3b7d4e2f8a6c1b0d9e8f7a6b");
    scoreboard->SetOperation(OperationKind::kQuery, "", "__typename");
    scoreboard->EndRequest(&finished);
  }
}
BENCHMARK(BM_ScoreboardPerRequest);

}  // namespace

BENCHMARK_MAIN();
