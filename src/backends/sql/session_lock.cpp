#include "backends/sql/session_lock.hpp"

#include <poll.h>

#include <thread>

#include "backends/sql/lease_backoff.hpp"
#include "common/error.hpp"

namespace dlock {
namespace sql {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

SessionLock::SessionLock(std::unique_ptr<SqlConnection> pinned, const SessionDialect& dialect,
                         std::string name)
    : connection_(std::move(pinned)), dialect_(dialect), name_(std::move(name)) {
  if (name_.empty() || name_.size() > kNameMax) {
    throw InvalidArgument("name: a lock name is 1 to 1024 bytes, not " + std::to_string(name_.size()));
  }
}

bool SessionLock::try_acquire() {
  if (held_) return true;
  const SessionAttempt attempt = dialect_.try_lock(*connection_, name_);
  if (!attempt.granted) return false;
  held_ = true;
  lost_ = false;
  token_ = attempt.token;
  session_ = connection_->session_id();
  return true;
}

bool SessionLock::acquire(milliseconds wait) {
  const auto deadline = Clock::now() + wait;
  LeaseBackoff backoff;
  for (;;) {
    try {
      if (try_acquire()) return true;
    } catch (const ConnectionError&) {
      // The session that may have taken the lock is gone, and the lock with it.
    }
    const auto now = Clock::now();
    if (now >= deadline) return false;
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - now);
    std::this_thread::sleep_for(std::min(backoff.next(kNoLeaseEnd), left));
  }
}

bool SessionLock::lost(milliseconds wait) {
  if (!held_ || lost_) return lost_;
  const int socket = connection_->socket();
  if (socket >= 0 && connection_->session_id() == session_) {
    pollfd watched{socket, POLLIN | POLLRDHUP, 0};
    const int ready = poll(&watched, 1, static_cast<int>(wait.count()));
    if (ready == 0) return false;
  }
  // Readable, closed, or already reconnected: a round trip tells, and a
  // reconnect by it (or before it) is another session, not ours.
  try {
    connection_->execute("SELECT 1");
  } catch (const ConnectionError&) {
  }
  lost_ = connection_->session_id() != session_;
  return lost_;
}

void SessionLock::release() {
  if (!held_) throw NotOwnerError("release of a session lock not held: " + connection_->server());
  held_ = false;
  const std::string ended =
      connection_->server() + ": the session holding the lock ended before its release (the server freed it)";
  if (lost_ || connection_->session_id() != session_) throw LostError(ended);
  bool released = false;
  try {
    released = dialect_.unlock(*connection_, name_);
  } catch (const ConnectionError&) {
    throw LostError(ended);
  }
  if (!released || connection_->session_id() != session_) throw LostError(ended);
}

}  // namespace sql
}  // namespace dlock
