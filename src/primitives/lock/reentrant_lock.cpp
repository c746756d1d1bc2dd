#include "primitives/lock/reentrant_lock.hpp"

#include <algorithm>
#include <atomic>

#include "common/error.hpp"
#include "core/wait_registration.hpp"
#include "core/waiter.hpp"

namespace dlock {
namespace {

// Stands for "no deadline" without overflowing the clock's arithmetic.
constexpr auto far_future = std::chrono::hours(24 * 365);

uint64_t next_grant_id() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

}  // namespace

ReentrantLock::Attempt ReentrantLock::attempt(const std::string& field, int64_t lease_ms) {
  const std::string lease = std::to_string(lease_ms);
  return core_.execute([&](Connection& connection) {
    const Clock::time_point sent_at = Clock::now();
    const Reply reply = LockScripts::acquire().run(connection, {keys().name, keys().counter}, {lease, field});
    const std::string what = "acquire '" + keys().name + "'";
    // acquire.lua: the token when granted, {the holder's PTTL} when not.
    if (!reply.is_array()) return Attempt{true, reply.integer(what), sent_at};
    if (reply.array_size(what) != 1)
      throw ProtocolError(what + ": expected 1 element, got " + reply.describe());
    return Attempt{false, reply.element(0).integer(what), sent_at};
  });
}

uint64_t ReentrantLock::record_grant(const AcquireRequest& request, const std::string& field,
                                     int64_t lease_ms, const Attempt& grant) {
  Hold hold;
  hold.grant_id = next_grant_id();
  hold.resource = resource_;
  hold.owner = request.owner;
  hold.field = field;
  hold.count = 1;
  hold.token = static_cast<uint64_t>(grant.value);
  hold.lease_ms = lease_ms;
  hold.watchdog = request.lease_ms < 0;
  hold.valid_until = grant.sent_at + trusted_validity(lease_ms);
  hold.renew_at = grant.sent_at + std::chrono::milliseconds(lease_ms / 3);
  hold.taken_through = request.handle;
  hold.on_lost = request.on_lost;
  const Clock::time_point due = hold.watchdog ? hold.renew_at : hold.valid_until;
  core_.holds().insert(std::move(hold));
  core_.watchdog().nudge(due);
  return static_cast<uint64_t>(grant.value);
}

std::optional<uint64_t> ReentrantLock::acquire(const AcquireRequest& request) {
  core_.throw_if_closed();
  if (std::optional<uint64_t> token = core_.holds().reenter(keys().name, request.owner)) {
    return token;
  }
  const Clock::time_point deadline =
      Clock::now() + (request.wait_ms < 0 ? far_future : std::chrono::milliseconds(request.wait_ms));
  const std::string field = core_.field(request.owner);
  const int64_t lease_ms = request.lease_ms < 0 ? core_.config().watchdog_timeout_ms : request.lease_ms;

  Attempt last = attempt(field, lease_ms);
  if (last.granted) return record_grant(request, field, lease_ms, last);
  if (request.wait_ms == 0) return std::nullopt;

  // Subscribe, then retry when the subscription is active (a release in
  // between is not missed), on each release message, or when the holder's
  // lease runs out (a crashed holder publishes nothing). Never on a timer.
  Waiter waiter;
  const WaitRegistration registration(core_.subscriber(), keys().channel, waiter, request.cancel);
  for (;;) {
    Clock::time_point wake_at = deadline;
    if (last.value >= 0) {
      wake_at = std::min(wake_at, Clock::now() + std::chrono::milliseconds(last.value));
    }
    bool signalled;
    {
      std::unique_lock<std::mutex> lock(waiter.mutex);
      waiter.wake.wait_until(lock, wake_at, [&] {
        return waiter.signalled || core_.closed() || (request.cancel && request.cancel->triggered());
      });
      signalled = waiter.signalled;
      waiter.signalled = false;
    }
    if (request.cancel != nullptr && request.cancel->triggered()) {
      throw InterruptedError("acquire '" + keys().name + "': cancelled");
    }
    core_.throw_if_closed();
    if (!signalled && Clock::now() >= deadline) return std::nullopt;
    last = attempt(field, lease_ms);
    if (last.granted) return record_grant(request, field, lease_ms, last);
  }
}

bool ReentrantLock::run_release(const std::string& field) {
  const std::string request_id = core_.request_id();
  return core_.execute([&](Connection& connection) {
    return resource_->release(connection, field, request_id, core_.retry_window_ms());
  });
}

void ReentrantLock::release(uint64_t owner) {
  core_.throw_if_closed();
  const std::optional<Hold> before = core_.holds().leave(keys().name, owner);
  if (!before) {
    throw NotOwnerError("release: the caller does not hold '" + keys().name + "'");
  }
  const std::string lost_message = "release: the hold on '" + keys().name +
                                   "' was lost (its lease ran out or another client took the lock)";
  if (before->count > 1) {
    if (before->lost) throw LostError(lost_message);
    return;
  }
  bool released = false;
  try {
    released = run_release(before->field);
  } catch (const Error&) {
    if (!before->lost) throw;
    // Lost already: the error that matters is the loss.
  }
  if (!before->lost && !released) {
    // Found here first (e.g. the process was paused past its lease before
    // the watchdog could see it): the hold has left the table, so this is
    // the one and only notice.
    LostNotice{before->on_lost, keys().name, owner, before->token}.deliver();
  }
  if (before->lost || !released) throw LostError(lost_message);
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

void ReentrantLock::release_taken_through(const void* handle) {
  for (const Hold& hold : core_.holds().taken_through(handle)) {
    if (hold.lost) continue;
    try {
      run_release(hold.field);
    } catch (const Error&) {
      // Unreachable or closing: the lease runs out on its own; nothing renews it.
    }
  }
}

}  // namespace dlock
