// A GoogleTest suite whose tests share one standalone ZooKeeper server,
// started before the suite's first test and killed after its last, with a
// plain session of each test's own to look at the nodes its clients make.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_session.hpp"
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

  // A plain ZooKeeper session beside the clients, opened on first use.
  dlock::zk::ZkSession& observer() {
    if (!observer_) {
      dlock::zk::SessionOptions options;
      options.hosts = hosts();
      observer_ = std::make_unique<dlock::zk::ZkSession>(options);
    }
    return *observer_;
  }
  std::vector<std::string> children(const std::string& path) {
    return dlock::zk::get_children(observer(), path).children;
  }

  // One suite runs at a time in a test program: each has the server to itself.
  static inline ZkEnsemble* server_ = nullptr;

 private:
  std::unique_ptr<dlock::zk::ZkSession> observer_;
};

}  // namespace dlock_test
