#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "dlock_handles.hpp"
#include "redis_cluster.hpp"
#include "redis_inspect.hpp"
#include "wait_until.hpp"

namespace dlock_test {

// A test suite on the RedisCluster its test program shares: started before
// the program's first cluster test (from GoogleTest's main thread, as the
// nodes need) and stopped when the program exits, so the suites of one
// program start one cluster. Each test leaves the slots where it found them.
class ClusterSuite : public ::testing::Test {
 protected:
  // A release wakes a waiter through its message in far less than this; a
  // waiter that missed it sleeps until the holder's lease (kLongLeaseMs) ends.
  static constexpr int64_t kWakeUpMs = 1500;
  static constexpr int64_t kLongLeaseMs = 20000;
  static constexpr int64_t kWaiterOwner = 7;

  static void SetUpTestSuite() {
    if (!cluster_) cluster_ = std::make_unique<RedisCluster>();
  }

  static RedisCluster& cluster() { return *cluster_; }
  // A client of the cluster (all its first masters as seeds).
  static ClientHandle open(int64_t watchdog_timeout_ms = 6000) {
    return open_client(cluster().url(), options_with_watchdog(watchdog_timeout_ms));
  }

  // Sharded subscribers of the lock's channel on the master owning its slot.
  static long long waiters_listening(const std::string& name) {
    const std::string channel = release_channel(name);
    return shard_subscribers(cluster().node(cluster().master_for_key(channel)), channel);
  }
  static bool await_waiter_listening(const std::string& name) {
    return wait_until([&] { return waiters_listening(name) == 1; }, std::chrono::milliseconds(5000));
  }
  // The only field of the lock's hash on the master owning it ("" when none or several).
  static std::string holder_field(const std::string& name) {
    const auto fields = hash_fields(cluster().node(cluster().master_for_key(name)), name);
    return fields.size() == 1 ? fields.begin()->first : "";
  }

 private:
  inline static std::unique_ptr<RedisCluster> cluster_;
};

}  // namespace dlock_test
