#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dlock_handles.hpp"
#include "redis_server.hpp"

namespace dlock_test {

// Every test gets its own redis-server, so tests share no state and run in parallel.
class RedisFixture : public ::testing::Test {
 protected:
  void SetUp() override { server_ = std::make_unique<RedisServer>(server_config()); }
  void TearDown() override { server_.reset(); }

  // Tests needing AOF, a Unix socket or credentials override this.
  virtual RedisServerConfig server_config() const { return {}; }

  RedisServer& server() { return *server_; }

  // A client of the test's server; watchdog_timeout_ms 0 keeps the library default.
  ClientHandle open(int64_t watchdog_timeout_ms = 0) {
    return watchdog_timeout_ms > 0 ? open_client(server_->url(), options_with_watchdog(watchdog_timeout_ms))
                                   : open_client(server_->url());
  }

 private:
  std::unique_ptr<RedisServer> server_;
};

// A fixture whose server runs with extra redis.conf lines: subclasses name them
// in their constructor.
class RedisFixtureWithConfig : public RedisFixture {
 protected:
  explicit RedisFixtureWithConfig(std::vector<std::string> lines) : lines_(std::move(lines)) {}
  RedisServerConfig server_config() const override {
    RedisServerConfig config;
    config.extra_lines = lines_;
    return config;
  }

 private:
  std::vector<std::string> lines_;
};

}  // namespace dlock_test
