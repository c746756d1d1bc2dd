// Follows the stream of an election's leaders (announce.lua, proclaim.lua) on
// a thread and a connection of its own, and calls back with each leader in
// order: first the one leading when it starts, then every entry after it.
// It reads with XREAD BLOCK from the last entry it delivered, so a reconnect
// (a restart, a failover, a slot moved) resumes where it stopped: nothing
// missed that the server kept, nothing twice, and never a term lower than
// one already delivered.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "backends/redis/election_ops/election_resource.hpp"
#include "common/wake_fd.hpp"
#include "core/client.hpp"
#include "core/election_ops.hpp"

namespace dlock {

class LeaderStream final : public LeaderFollower {
 public:
  using Fn = ElectionOps::LeaderFn;

  LeaderStream(std::shared_ptr<Client> client, std::shared_ptr<const ElectionResource> resource, Fn fn);
  // Stops the thread, waiting for a callback under way to return.
  ~LeaderStream() override;
  LeaderStream(const LeaderStream&) = delete;
  LeaderStream& operator=(const LeaderStream&) = delete;

 private:
  void run();
  // Reads entries after last_id_ on `connection` until it must be made
  // again (it broke, or the stream's node moved) or the observer stops.
  void follow(Connection& connection, const Router::Node& node);
  void deliver(const Leader& leader);
  // Sleeps up to `ms` unless stopped; whether it was stopped.
  bool pause(int ms);

  std::shared_ptr<Client> client_;
  std::shared_ptr<const ElectionResource> resource_;
  Fn fn_;
  WakeFd wake_;
  std::atomic<bool> stopping_{false};
  std::string last_id_;  // the last entry delivered or skipped; empty before the first snapshot
  uint64_t last_term_ = 0;
  const int started_in_ = 0;  // the pid that started the thread: a forked child has none to join
  std::thread thread_;
};

}  // namespace dlock
