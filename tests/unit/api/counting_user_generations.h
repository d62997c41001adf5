// Users' generations in memory for the caches' tests (core/api/portfolio_cache.h,
// core/api/user_cache.h): a counter per user on top of one for every user.
#ifndef NETGRAPH_TESTS_UNIT_API_COUNTING_USER_GENERATIONS_H_
#define NETGRAPH_TESTS_UNIT_API_COUNTING_USER_GENERATIONS_H_

#include <cstdint>
#include <map>

#include "core/api/portfolio_cache.h"

namespace netgraph::api {

class CountingUserGenerations : public UserGenerations {
 public:
  std::uint64_t Current(std::int64_t user_id) const override {
    auto found = users.find(user_id);
    return every + (found == users.end() ? 0 : found->second);
  }
  void Advance(std::int64_t user_id) override { ++users[user_id]; }
  void AdvanceAll() override { ++every; }

  std::uint64_t every = 3;
  std::map<std::int64_t, std::uint64_t> users;
};

}  // namespace netgraph::api

#endif  // NETGRAPH_TESTS_UNIT_API_COUNTING_USER_GENERATIONS_H_
