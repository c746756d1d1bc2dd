// A client as the C ABI hands it out: the configuration plus the current
// ClientCore. In a child process after fork() the parent's core (its sockets,
// threads and mutexes) belongs to the parent: the child leaves it untouched
// and builds a new core with a new client id on its first call.
#pragma once

#include <atomic>
#include <memory>

#include "backends/redis/net/url.hpp"
#include "core/client_core.hpp"

namespace dlock {

class Client {
 public:
  // Builds the first core, its session made by `open_session`, and checks
  // that the server answers.
  Client(const ClientConfig& config, SessionFactory open_session);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // The core for this process; ClosedError once close() was called.
  std::shared_ptr<ClientCore> core();
  void close();

 private:
  struct Incarnation {
    unsigned fork_generation;
    std::shared_ptr<ClientCore> core;
  };

  const ClientConfig config_;
  const SessionFactory open_session_;
  std::shared_ptr<Incarnation> current_;  // read and replaced with std::atomic_* functions
  std::atomic<bool> closed_{false};
};

}  // namespace dlock
