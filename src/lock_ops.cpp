#include "lock_ops.hpp"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <atomic>

#include "error.hpp"
#include "script.hpp"
#include "waiter.hpp"

namespace dlock {
namespace {

// Stands for "no deadline" without overflowing the clock's arithmetic.
constexpr auto far_future = std::chrono::hours(24 * 365);

uint64_t next_grant_id() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

// Keeps a waiter registered with the subscriber and the cancel token for as
// long as a blocking acquire waits.
class WaitRegistration {
 public:
  WaitRegistration(Subscriber& subscriber, const std::string& channel, Waiter& waiter, Cancel* cancel)
      : subscriber_(subscriber), channel_(channel), waiter_(waiter), cancel_(cancel) {
    subscriber_.add(channel_, &waiter_);
    if (cancel_ != nullptr) cancel_->attach(&waiter_);
  }
  ~WaitRegistration() {
    if (cancel_ != nullptr) cancel_->detach();
    subscriber_.remove(channel_, &waiter_);
  }
  WaitRegistration(const WaitRegistration&) = delete;
  WaitRegistration& operator=(const WaitRegistration&) = delete;

 private:
  Subscriber& subscriber_;
  const std::string& channel_;
  Waiter& waiter_;
  Cancel* cancel_;
};

}  // namespace

LockOps::Attempt LockOps::attempt(const std::string& field, int64_t lease_ms) {
  const std::string lease = std::to_string(lease_ms);
  try {
    return core_.execute([&](Connection& connection) {
      const Clock::time_point sent_at = Clock::now();
      Reply reply = Scripts::acquire().run(connection, {keys_->name, keys_->counter}, {lease, field});
      if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2 ||
          reply->element[0]->type != REDIS_REPLY_INTEGER || reply->element[1]->type != REDIS_REPLY_INTEGER) {
        throw ProtocolError("unexpected reply shape");
      }
      return Attempt{reply->element[0]->integer == 1, reply->element[1]->integer, sent_at};
    });
  } catch (const ProtocolError& error) {
    throw ProtocolError("acquire '" + keys_->name + "': " + error.what());
  }
}

uint64_t LockOps::record_grant(const AcquireRequest& request, const std::string& field, int64_t lease_ms,
                               const Attempt& grant) {
  Hold hold;
  hold.grant_id = next_grant_id();
  hold.keys = keys_;
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

std::optional<uint64_t> LockOps::acquire(const AcquireRequest& request) {
  core_.throw_if_closed();
  if (std::optional<uint64_t> token = core_.holds().reenter(keys_->name, request.owner)) {
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
  const WaitRegistration registration(core_.subscriber(), keys_->channel, waiter, request.cancel);
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
      throw InterruptedError("acquire '" + keys_->name + "': cancelled");
    }
    core_.throw_if_closed();
    if (!signalled && Clock::now() >= deadline) return std::nullopt;
    last = attempt(field, lease_ms);
    if (last.granted) return record_grant(request, field, lease_ms, last);
  }
}

bool LockOps::run_release(const std::string& field) {
  const std::string latch = keys_->latch + ":" + core_.request_id();
  const std::string latch_ms = std::to_string(core_.config().command_timeout_ms * 2);
  return core_.execute([&](Connection& connection) {
    Reply reply = Scripts::release().run(connection, {keys_->name, keys_->channel, latch}, {field, latch_ms});
    return reply->type == REDIS_REPLY_INTEGER && reply->integer == 1;
  });
}

void LockOps::release(uint64_t owner) {
  core_.throw_if_closed();
  const std::optional<Hold> before = core_.holds().leave(keys_->name, owner);
  if (!before) {
    throw NotOwnerError("release: the caller does not hold '" + keys_->name + "'");
  }
  const std::string lost_message = "release: the hold on '" + keys_->name +
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
    LostNotice{before->on_lost, keys_->name, owner, before->token}.deliver();
  }
  if (before->lost || !released) throw LostError(lost_message);
}

bool LockOps::force_release() {
  core_.throw_if_closed();
  return core_.execute([&](Connection& connection) {
    Reply reply = Scripts::force_release().run(connection, {keys_->name, keys_->channel}, {});
    return reply->type == REDIS_REPLY_INTEGER && reply->integer == 1;
  });
}

bool LockOps::is_locked() {
  core_.throw_if_closed();
  return core_.execute([&](Connection& connection) {
    Reply reply = connection.command({"EXISTS", keys_->name});
    throw_if_error_reply(reply.get(), "EXISTS " + keys_->name);
    return reply->type == REDIS_REPLY_INTEGER && reply->integer == 1;
  });
}

int64_t LockOps::ttl_ms() {
  core_.throw_if_closed();
  return core_.execute([&](Connection& connection) {
    Reply reply = connection.command({"PTTL", keys_->name});
    throw_if_error_reply(reply.get(), "PTTL " + keys_->name);
    if (reply->type != REDIS_REPLY_INTEGER) throw ProtocolError("PTTL " + keys_->name + ": not an integer");
    return static_cast<int64_t>(reply->integer);
  });
}

void LockOps::release_taken_through(const void* handle) {
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
