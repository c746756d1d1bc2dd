#include "backends/sql/sql_election_ops.hpp"

#include "backends/sql/lease_dialect.hpp"
#include "backends/sql/sql_client_session.hpp"
#include "backends/sql/sql_leader_follower.hpp"
#include "common/error.hpp"

namespace dlock {
namespace {

const std::string kRowPrefix = "dlock_election:";

// The leadership's row name for the election `name`. The lock table would
// refuse a long name too, but counting the prefix the user never wrote, and
// it would take an empty one.
std::string row_name_of(const std::string& name) {
  const std::size_t most = sql::kMaxLockNameBytes - kRowPrefix.size();
  if (name.empty() || name.size() > most) {
    throw InvalidArgument("name: an election name is 1 to " + std::to_string(most) +
                          " bytes on SQL (its row in the lock table is \"" + kRowPrefix + "<name>\"), not " +
                          std::to_string(name.size()));
  }
  return kRowPrefix + name;
}

}  // namespace

SqlElectionOps::SqlElectionOps(SqlLockOps::SessionOf session_of, std::string name)
    : session_of_(std::move(session_of)),
      name_(std::move(name)),
      row_name_(row_name_of(name_)),
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
