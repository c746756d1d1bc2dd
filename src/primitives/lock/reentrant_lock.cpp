#include "primitives/lock/reentrant_lock.hpp"

#include <algorithm>
#include <atomic>

#include "common/error.hpp"
#include "common/log.hpp"
#include "core/handle_holds.hpp"
#include "primitives/lock/acquire_process.hpp"

namespace dlock {
namespace {

// A wait this long is worth a log record (info): the lock is contended.
constexpr auto long_wait = std::chrono::seconds(10);

uint64_t next_grant_id() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

std::string lost_message(const char* operation, const std::string& name) {
  return std::string(operation) + ": the hold on '" + name +
         "' was lost (its lease ran out or another client took the lock)";
}

}  // namespace

ReentrantLock::Attempt ReentrantLock::attempt(const AcquireRequest& request, const std::string& field,
                                              int64_t lease_ms) {
  const std::string lease = std::to_string(lease_ms);
  const std::string request_id = core_.request_id();
  const std::string latch = keys().owner_latch(field);
  const Argv lock_keys{keys().name, keys().counter, latch, keys().turn, keys().waiting};
  const char* will_wait = request.wait_ms == 0 ? "0" : "1";
  try {
    return core_.execute([&](Connection& connection) {
      const Clock::time_point sent_at = Clock::now();
      const Reply reply =
          LockScripts::acquire().run(connection, lock_keys, {lease, field, request_id, will_wait});
      const std::string what = "acquire '" + keys().name + "'";
      // acquire.lua: the token when granted, {the holder's PTTL} when not.
      if (!reply.is_array()) {
        const int64_t token = reply.integer(what);
        if (confirm_replicated(connection, field, lease_ms)) return Attempt{true, token, sent_at};
        // Undone: retried like a busy lock whose holder has this long left.
        return Attempt{false, core_.config().sync_timeout_ms, sent_at};
      }
      if (reply.array_size(what) != 1)
        throw ProtocolError(what + ": expected 1 element, got " + reply.describe());
      return Attempt{false, reply.element(0).integer(what), sent_at};
    });
  } catch (const ConnectionError&) {
    withdraw(request, field, lease_ms);
    throw;
  }
}

bool ReentrantLock::confirm_replicated(Connection& connection, const std::string& field, int64_t lease_ms) {
  const ClientConfig& config = core_.config();
  if (config.sync_replicas == 0) return true;
  const std::string wanted = std::to_string(config.sync_replicas);
  const int64_t reached =
      connection.command({"WAIT", wanted, std::to_string(config.sync_timeout_ms)}).integer("WAIT " + wanted);
  if (reached >= config.sync_replicas) return true;
  resource_->release(connection, field, core_.request_id(), lease_ms + core_.retry_window_ms());
  if (log::enabled(DLOCK_LOG_DEBUG)) {
    log::emit(DLOCK_LOG_DEBUG, "acquire '" + keys().name + "': the grant reached " + std::to_string(reached) +
                                   " of " + wanted + " replicas within " +
                                   std::to_string(config.sync_timeout_ms) + " ms; undone");
  }
  return false;
}

Hold ReentrantLock::new_hold(const AcquireRequest& request, const std::string& field,
                             int64_t lease_ms) const {
  Hold hold;
  hold.grant_id = next_grant_id();
  hold.resource = resource_;
  hold.owner = request.owner;
  hold.field = field;
  hold.count = 1;
  hold.lease_ms = lease_ms;
  hold.taken_through = request.handle;
  return hold;
}

void ReentrantLock::withdraw(const AcquireRequest& request, const std::string& field, int64_t lease_ms) {
  Hold withdrawal = new_hold(request, field, lease_ms);
  // Tried until a grant it ran late could have lapsed on its own.
  withdrawal.valid_until = Clock::now() + std::chrono::milliseconds(lease_ms + core_.retry_window_ms());
  withdrawal.renew_at = Clock::now();
  withdrawal.releasing = core_.request_id();
  withdrawal.withdrawal = true;
  core_.holds().insert(std::move(withdrawal));
  core_.watchdog().nudge(Clock::now());
}

uint64_t ReentrantLock::record_grant(const AcquireRequest& request, const std::string& field,
                                     int64_t lease_ms, const Attempt& grant) {
  Hold hold = new_hold(request, field, lease_ms);
  hold.token = static_cast<uint64_t>(grant.value);
  hold.watchdog = request.lease_ms < 0;
  hold.granted_at = grant.sent_at;
  hold.valid_until = grant.sent_at + trusted_validity(lease_ms);
  hold.renew_at = grant.sent_at + std::chrono::milliseconds(lease_ms / 3);
  hold.on_lost = request.on_lost;
  const Clock::time_point due = hold.watchdog ? hold.renew_at : hold.valid_until;
  core_.holds().insert(std::move(hold));
  core_.watchdog().nudge(due);
  ClientStats::count(core_.stats().grants);
  return static_cast<uint64_t>(grant.value);
}

void ReentrantLock::count_wait(Clock::time_point started, bool woken_by_release) {
  ClientStats& stats = core_.stats();
  const auto waited = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started);
  stats.wait_times.record(waited);
  if (woken_by_release) ClientStats::count(stats.handoffs);
  if (waited >= long_wait && log::enabled(DLOCK_LOG_INFO)) {
    log::emit(DLOCK_LOG_INFO, "acquired '" + keys().name + "' on " + core_.config().describe() +
                                  " after waiting " + std::to_string(waited.count() / 1000) + " ms");
  }
}

std::optional<uint64_t> ReentrantLock::acquire(const AcquireRequest& request) {
  AcquireProcess process(*this, request);
  for (;;) {
    const AcquireProcess::Step step = process.step();
    if (step.done) return step.token;
    process.sleep_until(step.wake_at);
  }
}

bool ReentrantLock::run_release(const Hold& hold, const std::string& request_id) {
  return run_release(hold.field, request_id, release_latch_ms(hold, core_.retry_window_ms()));
}

bool ReentrantLock::run_release(const std::string& field, const std::string& request_id, int64_t latch_ms) {
  return core_.execute(
      [&](Connection& connection) { return resource_->release(connection, field, request_id, latch_ms); });
}

void ReentrantLock::settle_pending_release(uint64_t owner) {
  const std::optional<Hold> pending = core_.holds().pending_release(keys().name, owner);
  if (!pending) return;
  const bool released = run_release(*pending, pending->releasing);
  core_.holds().release_settled(*pending);
  if (!released && !pending->withdrawal) deliver_found_by_release(*pending);
}

void ReentrantLock::release(uint64_t owner) {
  core_.throw_if_closed();
  const std::optional<Hold> before = core_.holds().leave(keys().name, owner, core_.request_id());
  if (!before) {
    throw NotOwnerError("release: the caller does not hold '" + keys().name + "'");
  }
  if (before->count > 1) {
    if (before->lost) throw LostError(lost_message("release", keys().name));
    return;
  }
  if (before->withdrawal) {
    throw NotOwnerError("release: the caller does not hold '" + keys().name + "'");
  }
  bool released = false;
  try {
    released = run_release(*before, before->lost ? core_.request_id() : before->releasing);
  } catch (const Error&) {
    if (!before->lost) {
      // Kept as a pending release: the watchdog retries it, and so does the
      // caller's next release or acquire, under the same request id.
      core_.holds().release_failed(*before, Clock::now() + core_.watchdog().retry_delay());
      core_.watchdog().nudge(Clock::now() + core_.watchdog().retry_delay());
      throw;
    }
    // Lost already: the error that matters is the loss.
  }
  if (!before->lost) core_.holds().release_settled(*before);
  if (!before->lost && !released) {
    // Found here first (e.g. the process was paused past its lease before
    // the watchdog could see it): the hold has left the table, so this is
    // the one and only notice.
    deliver_found_by_release(*before);
  }
  if (before->lost || !released) throw LostError(lost_message("release", keys().name));
}

void ReentrantLock::deliver(const LostNotice& notice) {
  notice.deliver(core_.stats(), core_.config().describe());
}

void ReentrantLock::deliver_found_by_release(const Hold& hold) {
  deliver({hold.on_lost, keys().name, hold.owner, hold.token, hold.granted_at, lost_at_release});
}

void ReentrantLock::release_keeping(uint64_t owner, int64_t keep_ms) {
  core_.throw_if_closed();
  // Out of the table first: from here on the watchdog no longer renews it
  // (a renewal already sent finds the field renamed and changes nothing).
  const std::optional<Hold> hold = core_.holds().take_if_outermost(keys().name, owner);
  if (!hold) {
    throw NotOwnerError("release_keeping: the caller does not hold '" + keys().name + "'");
  }
  if (hold->count > 1) {
    throw InvalidArgument("release_keeping: the caller holds '" + keys().name + "' " +
                          std::to_string(hold->count) +
                          " times; only an outermost hold can be kept, release the inner ones first");
  }
  if (hold->lost) throw LostError(lost_message("release_keeping", keys().name));
  const std::string keep = std::to_string(keep_ms);
  const bool kept = core_.execute([&](Connection& connection) {
    return LockScripts::keep()
        .run(connection, {keys().name}, {hold->field, keep})
        .integer_is_one("keep '" + keys().name + "'");
  });
  if (!kept) {
    // Found here first, as in release(): the one and only notice.
    deliver_found_by_release(*hold);
    throw LostError(lost_message("release_keeping", keys().name));
  }
}

void ReentrantLock::extend(uint64_t owner, int64_t lease_ms) {
  core_.throw_if_closed();
  const std::optional<Hold> hold = core_.holds().find(keys().name, owner);
  if (!hold) throw NotOwnerError("extend: the caller does not hold '" + keys().name + "'");
  if (hold->watchdog) {
    throw InvalidArgument("lease_ms: the hold on '" + keys().name +
                          "' is kept alive by the watchdog; only a fixed lease is extended");
  }
  if (hold->lost) throw LostError(lost_message("extend", keys().name));
  const std::string lease = std::to_string(lease_ms);
  Clock::time_point sent_at;
  const bool still_owned = core_.execute([&](Connection& connection) {
    sent_at = Clock::now();
    return resource_->renewal_script()
        .run(connection, resource_->renewal_keys(), {lease, hold->field})
        .integer_is_one("extend '" + keys().name + "'");
  });
  if (!still_owned) {
    if (auto notice = core_.holds().renewed(*hold, false, sent_at)) deliver(*notice);
    throw LostError(lost_message("extend", keys().name));
  }
  core_.holds().extended(*hold, lease_ms, sent_at);
}

bool ReentrantLock::force_release() {
  core_.throw_if_closed();
  return core_.execute([&](Connection& connection) {
    const Reply reply = LockScripts::force_release().run(connection, {keys().name, keys().channel}, {});
    return reply.integer_is_one("force release '" + keys().name + "'");
  });
}

bool ReentrantLock::is_locked() {
  core_.throw_if_closed();
  return core_.execute([&](Connection& connection) {
    return connection.command({"EXISTS", keys().name}).integer_is_one("EXISTS " + keys().name);
  });
}

int64_t ReentrantLock::ttl_ms() {
  core_.throw_if_closed();
  return core_.execute([&](Connection& connection) {
    return connection.command({"PTTL", keys().name}).integer("PTTL " + keys().name);
  });
}

void ReentrantLock::release_unrecorded(uint64_t owner) {
  if (core_.holds().find(keys().name, owner)) return;
  try {
    run_release(core_.field(owner), core_.request_id(), core_.retry_window_ms());
  } catch (const Error&) {
    // Unreachable or closing: an unrecorded grant lapses with its lease.
  }
}

void ReentrantLock::release_taken_through(const void* handle) {
  release_holds_taken_through(core_, handle);
}

}  // namespace dlock
