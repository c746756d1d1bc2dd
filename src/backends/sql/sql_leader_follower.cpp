#include "backends/sql/sql_leader_follower.hpp"

#include <unistd.h>

#include <algorithm>
#include <memory>

#include "backends/sql/sql_client_session.hpp"
#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds notified_recheck{5000};  // PostgreSQL: a notification may have been missed
constexpr milliseconds polled{500};             // MySQL: nothing notifies
constexpr milliseconds first_backoff{50};
constexpr milliseconds max_backoff{1000};

}  // namespace

SqlLeaderFollower::SqlLeaderFollower(SqlLockOps::SessionOf session_of, std::string row_name, std::string name,
                                     ElectionOps::LeaderFn fn)
    : session_of_(std::move(session_of)),
      row_name_(std::move(row_name)),
      name_(std::move(name)),
      fn_(std::move(fn)),
      started_in_(static_cast<int>(getpid())),
      thread_([this] { run(); }) {}

SqlLeaderFollower::~SqlLeaderFollower() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  woken_.notify_all();
  if (static_cast<int>(getpid()) == started_in_) {
    thread_.join();
  } else {
    thread_.detach();  // fork() copied the handle, not the thread
  }
}

void SqlLeaderFollower::signal() {
  std::lock_guard<std::mutex> lock(mutex_);
  signalled_ = true;
  woken_.notify_all();
}

bool SqlLeaderFollower::wait(milliseconds pause) {
  std::unique_lock<std::mutex> lock(mutex_);
  woken_.wait_for(lock, pause, [this] { return signalled_ || stopping_; });
  signalled_ = false;
  return !stopping_;
}

void SqlLeaderFollower::deliver(const Leader& leader) {
  if (told_ && (leader.term < told_->term || (leader.term == told_->term && leader.value == told_->value))) {
    return;
  }
  told_ = leader;
  fn_(leader);
}

void SqlLeaderFollower::run() {
  std::unique_ptr<sql::LeaseWatch> watch;  // PostgreSQL's notifications of the leadership row
  milliseconds pause{0};
  milliseconds backoff = first_backoff;
  while (wait(pause)) {
    try {
      SqlClientSession& session = session_of_();
      sql::SqlPool::Lease connection = session.pool().take();
      if (!watch && session.wakeups() != nullptr) {
        watch = session.wakeups()->watch(*connection, session.dialect().table(), row_name_, [this] { signal(); });
      }
      const std::optional<Leader> leader = session.leader_table().read(*connection, row_name_);
      if (leader) deliver(*leader);
      pause = watch ? notified_recheck : polled;
      backoff = first_backoff;
    } catch (const ClosedError&) {
      return;  // the client was closed: nothing more will come
    } catch (const std::exception& error) {
      log::emit(DLOCK_LOG_WARN, "observing the leaders of '" + name_ + "': " + error.what() + "; retrying in " +
                                    std::to_string(backoff.count()) + " ms");
      watch.reset();  // set again with the next read
      pause = backoff;
      backoff = std::min(backoff * 2, max_backoff);
    }
  }
}

}  // namespace dlock
