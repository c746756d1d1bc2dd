// A throwaway redis-server on a free loopback port, without persistence, in
// its own temporary directory; stopped and removed by the destructor.
#pragma once

#include <sys/types.h>

#include <string>

namespace dlock_bench {

class RedisServer {
 public:
  // Starts `executable` and waits until it answers PING. Throws
  // std::runtime_error when it does not start.
  explicit RedisServer(const std::string& executable);
  ~RedisServer();
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  int port() const { return port_; }

 private:
  void wait_until_ready();
  void stop();

  std::string dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace dlock_bench
