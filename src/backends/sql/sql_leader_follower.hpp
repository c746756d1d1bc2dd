// Follows an election's leaders on SQL (core/election_ops.hpp's
// LeaderFollower) on a thread of its own: it reads the leader record
// (leader_table.hpp) at start and again on each notification of the
// leadership row's release channel on PostgreSQL (a grant's record, a
// proclaim and a release each send one), with a read every 5 s besides in
// case one was missed while the listener reconnected; on MySQL, which has no
// notifications, every half second.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "backends/sql/sql_lock_ops.hpp"
#include "core/election_ops.hpp"

namespace dlock {

class SqlLeaderFollower final : public LeaderFollower {
 public:
  SqlLeaderFollower(SqlLockOps::SessionOf session_of, std::string row_name, std::string name,
                    ElectionOps::LeaderFn fn);
  ~SqlLeaderFollower() override;
  SqlLeaderFollower(const SqlLeaderFollower&) = delete;
  SqlLeaderFollower& operator=(const SqlLeaderFollower&) = delete;

 private:
  void run();
  // Sleeps up to `pause` unless notified or stopped; false once stopping.
  bool wait(std::chrono::milliseconds pause);
  void signal();
  // Calls back unless it is the leader told last or an older term.
  void deliver(const Leader& leader);

  const SqlLockOps::SessionOf session_of_;
  const std::string row_name_;
  const std::string name_;
  const ElectionOps::LeaderFn fn_;
  std::mutex mutex_;
  std::condition_variable woken_;
  bool signalled_ = false;
  bool stopping_ = false;
  std::optional<Leader> told_;
  const int started_in_;  // the pid that started the thread: a forked child has none to join
  std::thread thread_;
};

}  // namespace dlock
