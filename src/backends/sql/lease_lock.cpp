#include "backends/sql/lease_lock.hpp"

#include <thread>

#include "backends/sql/lease_backoff.hpp"
#include "backends/sql/lease_steps.hpp"
#include "common/error.hpp"

namespace dlock {
namespace sql {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

LeaseLock::LeaseLock(SqlConnection& connection, const LeaseDialect& dialect, std::string name,
                     std::string owner)
    : connection_(connection), dialect_(dialect), name_(std::move(name)), owner_(std::move(owner)) {
  dialect_.check_name(name_);
}

LeaseAttempt LeaseLock::try_acquire(milliseconds lease) {
  const LeaseAttempt attempt = attempt_lease(connection_, dialect_, name_, owner_, lease);
  if (attempt.granted) {
    held_ = true;
    token_ = attempt.token;
    grant_ = attempt.grant;
  }
  return attempt;
}

bool LeaseLock::acquire(milliseconds lease, milliseconds wait, LeaseWakeups* wakeups) {
  const auto deadline = Clock::now() + wait;
  LeaseBackoff backoff;
  std::unique_ptr<LeaseWatch> watch;
  bool answer_lost = false;
  for (;;) {
    milliseconds holder_lease_left(0);
    try {
      const LeaseAttempt attempt = try_acquire(lease);
      if (attempt.granted) return true;
      answer_lost = false;
      holder_lease_left = attempt.holder_lease_left;
    } catch (const ConnectionError&) {
      answer_lost = true;
    }
    const auto now = Clock::now();
    if (now >= deadline) {
      if (answer_lost) withdraw();
      return false;
    }
    if (wakeups != nullptr && !answer_lost) {
      if (!watch) {
        try {
          watch = wakeups->watch(connection_, dialect_.table(), name_, nullptr);
          continue;  // a release before the watch began was not announced to us
        } catch (const ConnectionError&) {
          // Backs off this time; watching is tried again after the next refusal.
        }
      } else {
        watch->wait(std::min(now + holder_lease_left + milliseconds(1), deadline));
        continue;
      }
    }
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - now);
    std::this_thread::sleep_for(std::min(backoff.next(holder_lease_left), left));
  }
}

void LeaseLock::release(milliseconds keep) {
  if (!held_) throw NotOwnerError("release of " + dialect_.table() + " row not held by " + owner_);
  held_ = false;
  bool ended = false;
  try {
    ended = end_lease(connection_, dialect_, name_, owner_, grant_, keep, false);
  } catch (const ConnectionError&) {
    end_lease(connection_, dialect_, name_, owner_, grant_, keep, true);
    return;
  }
  if (!ended) {
    throw LostError(connection_.server() + ": the lock was no longer held by " + owner_ +
                    " when released (its lease ended)");
  }
}

void LeaseLock::withdraw() noexcept {
  try {
    withdraw_lease(connection_, dialect_, name_, owner_);
  } catch (const Error&) {
    // The row frees itself at its lease end (docs/design/backends.md 5, risk 10).
  }
}

}  // namespace sql
}  // namespace dlock
