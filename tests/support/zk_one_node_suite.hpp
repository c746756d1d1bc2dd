// A GoogleTest suite whose tests share one standalone ZooKeeper server,
// started before the suite's first test and killed after its last.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "zk_ensemble.hpp"

namespace dlock_test {

class ZkOneNodeSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new ZkEnsemble({1}); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  // zookeeper_init's host list of the server.
  static std::string hosts() { return server_->connect_string(); }

  // One suite runs at a time in a test program: each has the server to itself.
  static inline ZkEnsemble* server_ = nullptr;
};

}  // namespace dlock_test
