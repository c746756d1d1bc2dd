#include "backends/sql/sql_leader_follower.hpp"

#include <chrono>

#include "backends/sql/sql_client_session.hpp"

namespace dlock {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds notified_recheck{5000};  // PostgreSQL: a notification may have been missed
constexpr milliseconds polled{500};             // MySQL: nothing notifies

}  // namespace

SqlLeaderFollower::SqlLeaderFollower(SqlLockOps::SessionOf session_of, std::string row_name, std::string name,
                                     ElectionOps::LeaderFn fn)
    : LeaderFollowerLoop(std::move(name), std::move(fn)),
      session_of_(std::move(session_of)),
      row_name_(std::move(row_name)) {
  start();
}

SqlLeaderFollower::~SqlLeaderFollower() {
  stop();  // before the watch goes: its notifications signal the loop
}

LeaderFollowerLoop::Read SqlLeaderFollower::read(bool /*signalled*/) {
  SqlClientSession& session = session_of_();
  sql::SqlPool::Lease connection = session.pool().take();
  if (!watch_ && session.wakeups() != nullptr) {
    watch_ = session.wakeups()->watch(*connection, session.dialect().table(), row_name_, [this] { signal(); });
  }
  return {session.leader_table().read(*connection, row_name_), watch_ ? notified_recheck : polled};
}

}  // namespace dlock
