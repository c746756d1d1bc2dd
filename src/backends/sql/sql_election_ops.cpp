#include "backends/sql/sql_election_ops.hpp"

#include "backends/sql/sql_client_session.hpp"
#include "backends/sql/sql_leader_follower.hpp"

namespace dlock {
namespace {

const std::string kRowPrefix = "dlock_election:";

}  // namespace

SqlElectionOps::SqlElectionOps(SqlLockOps::SessionOf session_of, std::string name)
    : session_of_(std::move(session_of)),
      name_(std::move(name)),
      row_name_(kRowPrefix + name_),
      leadership_([&] {
        session_of_().leader_table();  // refuses ShedLock's table and session mode first
        return std::make_shared<SqlLockOps>(
            session_of_, row_name_, SqlRows::locks, 1,
            [session_of = session_of_, value = value_](sql::SqlConnection& connection, const std::string& row,
                                                       std::uint64_t term) {
              session_of().leader_table().record(connection, row, term, value->get());
            });
      }()) {}

void SqlElectionOps::set_value(std::string value) {
  value_->set(std::move(value));
}

bool SqlElectionOps::proclaim(const Hold& hold, const std::string& value) {
  SqlClientSession& session = session_of_();
  sql::SqlPool::Lease connection = session.pool().take();
  return session.leader_table().proclaim(*connection, row_name_, hold.grant.token, value);
}

std::optional<Leader> SqlElectionOps::leader() {
  SqlClientSession& session = session_of_();
  sql::SqlPool::Lease connection = session.pool().take();
  return session.leader_table().read(*connection, row_name_);
}

std::unique_ptr<LeaderFollower> SqlElectionOps::follow(LeaderFn fn) {
  return std::make_unique<SqlLeaderFollower>(session_of_, row_name_, name_, std::move(fn));
}

}  // namespace dlock
