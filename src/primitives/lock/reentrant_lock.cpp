#include "primitives/lock/reentrant_lock.hpp"

#include <algorithm>
#include <atomic>

#include "common/error.hpp"
#include "common/log.hpp"
#include "core/handle_holds.hpp"
#include "primitives/lock/acquire_process.hpp"

namespace dlock {
namespace {

uint64_t next_grant_id() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

// Throws the expiry or the loss of an ended hold (core/holds.hpp tells which).
[[noreturn]] void throw_ended_hold(const Hold& hold, const char* operation, const std::string& name) {
  throw_ended(hold, std::string(operation) + ": the hold on '" + name + "'",
              "was lost (its watchdog lease lapsed, or another client took the lock before its lease ended)");
}

}  // namespace

ReentrantLock::ReentrantLock(ClientCore& core, std::shared_ptr<LockOps> ops)
    : core_(core), ops_(std::move(ops)), resource_(ops_->held()) {}

Hold ReentrantLock::new_hold(const AcquireRequest& request, const std::string& field,
                             int64_t lease_ms) const {
  Hold hold;
  hold.grant_id = next_grant_id();
  hold.resource = resource_;
  hold.owner = request.owner;
  hold.grant.owner_field = field;
  hold.count = 1;
  hold.lease_ms = lease_ms;
  hold.taken_through = request.handle;
  return hold;
}

void ReentrantLock::withdraw(const AcquireRequest& request, const std::string& field, int64_t lease_ms) {
  // Tried until a grant it ran late could have lapsed on its own.
  const Clock::time_point give_up_at =
      Clock::now() + std::chrono::milliseconds(lease_ms + core_.retry_window_ms());
  core_.settle_later(
      pending_release(new_hold(request, field, lease_ms), core_.request_id(), false, give_up_at));
}

std::string ReentrantLock::pending_caller(uint64_t owner) const {
  // A unit separator first: no record key of another primitive starts so.
  return "\x1flock\x1f" + hold_key() + "\x1f" + std::to_string(owner);
}

PendingRequest ReentrantLock::pending_release(const Hold& hold, const std::string& request_id, bool finish,
                                              Clock::time_point give_up_at) const {
  PendingRequest release;
  release.caller = pending_caller(hold.owner);
  release.what = (finish ? "release '" : "acquire '") + name() + "'";
  release.finish = finish;
  release.give_up_at = give_up_at;
  const int64_t latch_ms = release_latch_ms(hold, core_.retry_window_ms());
  release.settle = ops_->settle_release(hold.grant, request_id, latch_ms);
  if (finish) {
    // A release that found the hold gone: its loss, told once by whichever
    // settles it, and what the caller's retry throws.
    const auto ended = [hold](Clock::time_point sent_at) {
      Hold gone = hold;
      gone.end(sent_at);
      return gone;
    };
    release.error_for = [ended](int64_t released, Clock::time_point sent_at) -> std::exception_ptr {
      if (released != 0) return nullptr;
      const Hold gone = ended(sent_at);
      try {
        throw_ended_hold(gone, "release", gone.resource->name());
      } catch (const Error&) {
        return std::current_exception();
      }
    };
    // The core owns its pending requests: it outlives them.
    release.on_answer = [core = &core_, ended](int64_t released, Clock::time_point sent_at) {
      if (released != 0) return;
      LostNotice::of(ended(sent_at), lost_at_release).deliver(core->stats(), core->describe());
    };
  }
  return release;
}

uint64_t ReentrantLock::record_grant(const AcquireRequest& request, const std::string& field,
                                     int64_t lease_ms, const LockWait::Try& grant) {
  Hold hold = new_hold(request, field, lease_ms);
  hold.grant.token = grant.token;
  hold.grant.locator = grant.locator;
  hold.watchdog = request.lease_ms < 0;
  hold.granted_at = grant.sent_at;
  hold.valid_until = grant.sent_at + trusted_validity(lease_ms);
  hold.renew_at = grant.sent_at + std::chrono::milliseconds(lease_ms / 3);
  hold.on_lost = request.on_lost;
  const Clock::time_point due = hold.watchdog ? hold.renew_at : hold.valid_until;
  core_.holds().insert(std::move(hold));
  core_.watchdog().nudge(due);
  ClientStats::count(core_.stats().grants);
  return grant.token;
}

std::optional<uint64_t> ReentrantLock::reenter(uint64_t owner) {
  core_.throw_if_closed();
  if (!ops_->reentrant()) return std::nullopt;
  const std::optional<uint64_t> token = core_.holds().reenter(hold_key(), owner);
  if (token) ClientStats::count(core_.stats().reentries);
  return token;
}

bool ReentrantLock::held_against_reentry(uint64_t owner) {
  if (ops_->reentrant()) return false;
  const std::optional<Hold> hold = core_.holds().find(hold_key(), owner);
  if (!hold) return false;
  if (hold->lost) throw_ended_hold(*hold, "acquire", name());
  return true;
}

void ReentrantLock::check_lease(int64_t lease_ms) const {
  if (lease_ms < 0 || ops_->fixed_leases()) return;
  throw InvalidArgument("lease_ms: the " + std::string(ops_->backend()) + " backend holds '" + name() +
                        "' for as long as its session lives, not for a fixed lease; lease_ms must be -1 "
                        "(the watchdog), not " +
                        std::to_string(lease_ms));
}

std::optional<uint64_t> ReentrantLock::acquire(const AcquireRequest& request) {
  check_lease(request.lease_ms);
  if (std::optional<uint64_t> token = reenter(request.owner)) return token;
  auto acquire = std::make_shared<AcquireProcess>(*this, request);
  WaitProcess wait(acquire, acquire->spec());
  if (!wait.run()) return std::nullopt;
  return acquire->token();
}

bool ReentrantLock::run_release(const Hold& hold, const std::string& request_id) {
  return ops_->release(hold.grant, request_id, release_latch_ms(hold, core_.retry_window_ms()));
}

void ReentrantLock::settle_pending(uint64_t owner) {
  core_.settle_pending(pending_caller(owner));
}

void ReentrantLock::release(uint64_t owner) {
  core_.throw_if_closed();
  const std::optional<Hold> before = core_.holds().leave(hold_key(), owner);
  if (!before) {
    // The release after one that failed is its retry: applied once, it
    // answers as that one did (settled in the background or now). A
    // withdrawal is no hold of the caller's, and is left to the background.
    const std::string caller = pending_caller(owner);
    const std::optional<PendingRequest> pending = core_.pending(caller);
    if (!pending || pending->finish) {
      const std::optional<SettledRequest> earlier = core_.settle_pending(caller);
      if (earlier && earlier->finish) {
        if (earlier->error) std::rethrow_exception(earlier->error);
        return;
      }
    }
    throw NotOwnerError("release: the caller does not hold '" + name() + "'");
  }
  if (before->count > 1) {
    if (before->lost) throw_ended_hold(*before, "release", name());
    return;
  }
  const std::string request_id = core_.request_id();
  bool released = false;
  const Clock::time_point sent_at = Clock::now();
  try {
    released = run_release(*before, request_id);
  } catch (const Error&) {
    if (!before->lost) {
      // A pending release from now on: the watchdog retries it a retry
      // delay from now (the caller just tried), and so does the caller's
      // next release or acquire, under the same request id, until it is
      // confirmed or the hold's validity ends (its lease has run out on the
      // server then).
      core_.settle_later(pending_release(*before, request_id, true, before->valid_until),
                         core_.watchdog().retry_delay());
      throw;
    }
    // Lost already: the error that matters is the loss.
  }
  if (before->lost) throw_ended_hold(*before, "release", name());
  if (!released) {
    // Found here first (e.g. the process was paused past its lease before
    // the watchdog could see it): the hold has left the table, so this is
    // the one and only notice.
    throw_ended_hold(deliver_found_by_release(*before, sent_at), "release", name());
  }
}

void ReentrantLock::deliver(const LostNotice& notice) {
  notice.deliver(core_.stats(), core_.describe());
}

Hold ReentrantLock::deliver_found_by_release(Hold hold, Clock::time_point sent_at) {
  hold.end(sent_at);
  deliver(LostNotice::of(hold, lost_at_release));
  return hold;
}

void ReentrantLock::release_keeping(uint64_t owner, int64_t keep_ms) {
  core_.throw_if_closed();
  if (!ops_->keeps()) {
    if (!ops_->fixed_leases()) {
      throw UnsupportedError("release_keeping: the " + std::string(ops_->backend()) + " backend holds '" +
                             name() + "' for as long as its session lives; it cannot keep it unrenewed");
    }
    // A lock kind that keeps nothing (Redis's fair lock), or a backend with no
    // statement for it yet (SQL): named, as every unsupported call is.
    throw UnsupportedError("release_keeping: '" + name() + "' cannot be kept on the " +
                           std::string(ops_->backend()) +
                           " backend; only a reentrant lock's hold can be kept, where the backend serves it");
  }
  // Out of the table first: from here on the watchdog no longer renews it
  // (a renewal already sent finds the field renamed and changes nothing).
  const std::optional<Hold> hold = core_.holds().take_if_outermost(hold_key(), owner);
  if (!hold) {
    throw NotOwnerError("release_keeping: the caller does not hold '" + name() + "'");
  }
  if (hold->count > 1) {
    throw InvalidArgument("release_keeping: the caller holds '" + name() + "' " +
                          std::to_string(hold->count) +
                          " times; only an outermost hold can be kept, release the inner ones first");
  }
  if (hold->lost) throw_ended_hold(*hold, "release_keeping", name());
  const Clock::time_point sent_at = Clock::now();
  const bool kept = ops_->release_keeping(hold->grant, keep_ms);
  if (!kept) {
    // Found here first, as in release(): the one and only notice.
    throw_ended_hold(deliver_found_by_release(*hold, sent_at), "release_keeping", name());
  }
}

void ReentrantLock::extend(uint64_t owner, int64_t lease_ms) {
  core_.throw_if_closed();
  const std::optional<Hold> hold = core_.holds().find(hold_key(), owner);
  if (!hold) throw NotOwnerError("extend: the caller does not hold '" + name() + "'");
  if (hold->watchdog) {
    throw InvalidArgument("lease_ms: the hold on '" + name() +
                          "' is kept alive by the watchdog; only a fixed lease is extended");
  }
  if (hold->lost) throw_ended_hold(*hold, "extend", name());
  const auto [still_owned, sent_at] = ops_->extend(hold->grant, lease_ms);
  if (!still_owned) {
    if (auto notice = core_.holds().renewed(*hold, false, sent_at)) deliver(*notice);
    Hold ended = *hold;
    ended.end(sent_at);
    throw_ended_hold(ended, "extend", name());
  }
  core_.holds().extended(*hold, lease_ms, sent_at);
}

bool ReentrantLock::force_release() {
  core_.throw_if_closed();
  return ops_->force_release();
}

bool ReentrantLock::is_locked() {
  core_.throw_if_closed();
  return ops_->is_locked();
}

int64_t ReentrantLock::ttl_ms() {
  core_.throw_if_closed();
  return ops_->ttl_ms();
}

void ReentrantLock::release_unrecorded(uint64_t owner) {
  // A recorded hold is not touched. An attempt that failed with a connection
  // error left its withdrawal pending (attempt()), retried in the background:
  // a release sent now to the same stalled server would cost the caller a
  // second command timeout.
  if (core_.holds().find(hold_key(), owner) || core_.pending(pending_caller(owner))) return;
  try {
    // No locator: the backend finds the grant by the owner's field if it can.
    GrantRef unheard;
    unheard.owner_field = ops_->hold_field(core_.field(owner));
    ops_->release(unheard, core_.request_id(), core_.retry_window_ms());
  } catch (const Error&) {
    // Unreachable or closing: an unrecorded grant lapses with its lease.
  }
}

void ReentrantLock::release_taken_through(const void* handle) {
  release_holds_taken_through(core_, handle);
}

}  // namespace dlock
