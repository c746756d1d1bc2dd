// What an election's tests read of its leaders: the leader of the moment, and
// what an observer (dlock_election_observe) was told, in order.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dlock.h"

namespace dlock_test {

// dlock_election_leader's answer; nullopt when nobody leads (fails the test on an error).
std::optional<dlock_leader> leader_of(dlock_election* election);
std::string leader_value(const dlock_leader& leader);

// A dlock_leader_fn's context: every leader told, as (term, value), in order.
class ObservedLeaders {
 public:
  static void on_leader(const dlock_leader* leader, void* ctx);
  std::vector<std::pair<uint64_t, std::string>> seen();
  std::size_t count() { return seen().size(); }

 private:
  std::mutex mutex_;
  std::vector<std::pair<uint64_t, std::string>> seen_;
};

}  // namespace dlock_test
