// Follows an election's leaders on SQL (core/leader_follower_loop.hpp): the
// loop reads the leader record (leader_table.hpp) at start and again on each
// notification of the leadership row's release channel on PostgreSQL (a
// grant's record, a proclaim and a release each send one), with a read every
// 5 s besides in case one was missed while the listener reconnected; on
// MySQL, which has no notifications, every half second.
#pragma once

#include <memory>
#include <string>

#include "backends/sql/lease_wakeups.hpp"
#include "backends/sql/sql_lock_ops.hpp"
#include "core/leader_follower_loop.hpp"

namespace dlock {

class SqlLeaderFollower final : public LeaderFollowerLoop {
 public:
  SqlLeaderFollower(SqlLockOps::SessionOf session_of, std::string row_name, std::string name,
                    ElectionOps::LeaderFn fn);
  ~SqlLeaderFollower() override;

 private:
  Read read(bool signalled) override;
  void forget() override { watch_.reset(); }

  const SqlLockOps::SessionOf session_of_;
  const std::string row_name_;
  std::unique_ptr<sql::LeaseWatch> watch_;  // PostgreSQL's notifications of the leadership row
};

}  // namespace dlock
