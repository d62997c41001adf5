// A data generation in memory (core/api/read_cache.h) for the api tests: a counter they advance.
#ifndef NETGRAPH_TESTS_UNIT_API_COUNTING_GENERATION_H_
#define NETGRAPH_TESTS_UNIT_API_COUNTING_GENERATION_H_

#include <cstdint>

#include "core/api/read_cache.h"

namespace netgraph::api::testing {

class CountingGeneration : public DataGeneration {
 public:
  std::uint64_t Current() const override { return value; }
  void Advance() override { ++value; }
  std::uint64_t value = 7;
};

}  // namespace netgraph::api::testing

#endif  // NETGRAPH_TESTS_UNIT_API_COUNTING_GENERATION_H_
