#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dlock_test {

// A TCP proxy on a free loopback port that forwards every connection to a server
// port, and can cut the network between them without closing anything: while
// partitioned no byte moves in either direction (senders' data waits in the
// kernel, as it would behind a dropped link) and new connections are accepted
// but not served; heal() resumes forwarding, including what waited.
class TcpProxy {
 public:
  explicit TcpProxy(int upstream_port);
  ~TcpProxy();
  TcpProxy(const TcpProxy&) = delete;
  TcpProxy& operator=(const TcpProxy&) = delete;

  int port() const { return port_; }
  std::string url() const;  // redis://127.0.0.1:<port>

  void partition() { partitioned_ = true; }
  void heal() { partitioned_ = false; }

 private:
  struct Link {
    int client_fd;
    int upstream_fd;
  };

  void run();
  void accept_one();
  // Moves what is readable on `from` to `to`; false when either side closed.
  static bool forward(int from, int to);

  int upstream_port_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::vector<Link> links_;  // touched by the forwarding thread only
  std::atomic<bool> partitioned_{false};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace dlock_test
