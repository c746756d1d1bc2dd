#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "dlock_handles.hpp"
#include "redis_cluster.hpp"

namespace dlock_test {

// A test suite on the RedisCluster its test program shares: started before
// the program's first cluster test (from GoogleTest's main thread, as the
// nodes need) and stopped when the program exits, so the suites of one
// program start one cluster. Each test leaves the slots where it found them.
class ClusterSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!cluster_) cluster_ = std::make_unique<RedisCluster>();
  }

  static RedisCluster& cluster() { return *cluster_; }
  // A client of the cluster (all its first masters as seeds).
  static ClientHandle open(int64_t watchdog_timeout_ms = 6000) {
    return open_client(cluster().url(), options_with_watchdog(watchdog_timeout_ms));
  }

 private:
  inline static std::unique_ptr<RedisCluster> cluster_;
};

}  // namespace dlock_test
