#pragma once

#include <gtest/gtest.h>

#include "redis_cluster.hpp"

namespace dlock_test {

// A test suite sharing one RedisCluster, started before its first test and
// stopped after its last (from GoogleTest's main thread, as the nodes need).
class ClusterSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cluster_ = new RedisCluster(); }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  static RedisCluster& cluster() { return *cluster_; }

 private:
  inline static RedisCluster* cluster_ = nullptr;
};

}  // namespace dlock_test
