// An election on SQL (core/election_ops.hpp), in lease mode on dlock's lock
// table: the leadership is the reentrant lock's row "dlock_election:<name>"
// (so it never meets a lock of the user's named the same), its token the
// term; each grant records the candidate's value in <lock table>_leaders
// (leader_table.hpp) on the granting connection, and proclaim replaces it.
// Followers read the record again on each release channel notification on
// PostgreSQL, every half second on MySQL (sql_leader_follower.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "backends/sql/sql_lock_ops.hpp"
#include "core/election_ops.hpp"

namespace dlock {

class SqlElectionOps final : public ElectionOps {
 public:
  // Throws UnsupportedError with table=shedlock or mode=session (naming the
  // option), InvalidArgument naming `name` for an empty name or one the lock
  // table cannot hold once prefixed (more than 1,009 bytes).
  SqlElectionOps(SqlLockOps::SessionOf session_of, std::string name);

  const std::string& name() const override { return name_; }
  std::shared_ptr<LockOps> leadership() const override { return leadership_; }
  void set_value(std::string value) override;
  bool proclaim(const Hold& hold, const std::string& value) override;
  std::optional<Leader> leader() override;
  std::unique_ptr<LeaderFollower> follow(LeaderFn fn) override;

 private:
  const SqlLockOps::SessionOf session_of_;
  const std::string name_;
  const std::string row_name_;  // the leadership's row in the lock table
  // What the candidate's next grant records (SqlLockOps::OnGrant).
  const std::shared_ptr<CandidateValue> value_ = std::make_shared<CandidateValue>();
  const std::shared_ptr<LockOps> leadership_;
};

}  // namespace dlock
