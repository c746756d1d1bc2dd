#include "primitives/permit_semaphore/permit_semaphore.hpp"

#include "backends/redis/redis_semaphore_ops.hpp"
#include "backends/redis/redis_session.hpp"
#include "backends/redis/redis_settle.hpp"
#include "common/error.hpp"
#include "core/release_attempts.hpp"

namespace dlock {
namespace {

std::string not_held_message(std::string_view id, const std::string& name) {
  return "permit_id: '" + std::string(id) + "' holds no permit of '" + name +
         "' (released already, its lease ended, or never granted)";
}

}  // namespace

void PermitSemaphore::record_grant(const PermitRequest& request, const PermitId& id, int64_t lease_ms,
                                   Clock::time_point sent_at) {
  Hold hold;
  hold.grant_id = id.token;  // random: tells this grant's renewals from any other's
  hold.resource = resource_;
  hold.owner = id.owner;
  hold.grant.owner_field = id.raw;
  hold.count = 1;
  hold.grant.token = id.token;
  hold.lease_ms = lease_ms;
  hold.watchdog = request.lease_ms < 0;
  hold.granted_at = sent_at;
  hold.valid_until = sent_at + trusted_validity(lease_ms);
  hold.renew_at = sent_at + std::chrono::milliseconds(lease_ms / 3);
  hold.taken_through = request.handle;
  hold.on_lost = request.on_lost;
  const Clock::time_point due = hold.watchdog ? hold.renew_at : hold.valid_until;
  core_.holds().insert(std::move(hold));
  core_.watchdog().nudge(due);
  ClientStats::count(core_.stats().grants);
}

// The permit semaphore's side of a wait: every release message wakes all its
// waiters, and a refusal says when the earliest lease ends (a crashed
// holder's permit returns then, and nothing publishes it).
class PermitAcquire final : public ReleaseAttempts {
 public:
  PermitAcquire(const PermitSemaphore& semaphore, const PermitRequest& request)
      : ReleaseAttempts(semaphore.core_,
                        std::make_unique<RedisSemaphoreOps>(semaphore.core_, semaphore.keys().channel)),
        semaphore_(semaphore),
        request_(request),
        lease_ms_(request.lease_ms < 0 ? semaphore.core_.config().watchdog_timeout_ms : request.lease_ms),
        what_("acquire a permit of '" + semaphore.keys().name + "'"),
        // The permit's request record (src/backends/redis/lua/requests.lua): a withdrawn acquire
        // grants nothing.
        record_(semaphore.keys().latch + ":" + id_.raw),
        request_id_(semaphore.core_.request_id()) {}

  const PermitId& id() const { return id_; }
  const std::string& what() const { return what_; }

  Outcome attempt(int64_t /*wait_left_ms*/, bool /*woken_by_message*/) override {
    const PermitKeys& keys = semaphore_.keys();
    const std::string lease = std::to_string(lease_ms_);
    Clock::time_point sent_at;
    // The same id on every retry: acquire.lua grants an id once.
    const Reply reply = [&] {
      try {
        return redis_session(semaphore_.core_).execute(keys.name, [&](Connection& connection) {
          sent_at = Clock::now();
          return PermitScripts::acquire().run(connection, {keys.name, keys.timeouts, keys.channel, record_},
                                              {id_.raw, lease, request_id_});
        });
      } catch (const ConnectionError&) {
        // The server may still grant it, to nobody: withdrawn, the permit returned.
        semaphore_.withdraw_later(id_, record_, request_id_, what_);
        throw;
      }
    }();
    // acquire.lua: {1} granted, {0, ms until the earliest lease ends or -1}.
    const std::size_t size = reply.array_size(what_);
    if (size < 1) throw ProtocolError(what_ + ": unexpected reply " + reply.describe());
    if (reply.element(0).integer(what_) == 1) {
      semaphore_.record_grant(request_, id_, lease_ms_, sent_at);
      return {true, std::nullopt};
    }
    if (size == 2 && reply.element(1).integer(what_) >= 0) {
      return {false, std::chrono::milliseconds(reply.element(1).integer(what_))};
    }
    return {false, std::nullopt};
  }

 private:
  PermitSemaphore semaphore_;
  const PermitRequest request_;
  const PermitId id_ = PermitId::fresh();
  const int64_t lease_ms_;
  const std::string what_;
  const std::string record_;
  const std::string request_id_;
};

PermitSemaphoreOps::Wait PermitSemaphore::acquire_wait(const PermitRequest& request) {
  auto acquire = std::make_shared<PermitAcquire>(*this, request);
  return {std::make_shared<WaitProcess>(
              acquire, WaitSpec{request.wait_ms, request.cancel, &core_.stats(), acquire->what()}),
          [id = acquire->id().text()] { return id; }};
}

void PermitSemaphore::withdraw_later(const PermitId& id, const std::string& record,
                                     const std::string& request, const std::string& what) {
  PendingRequest withdrawal;
  withdrawal.caller = record;  // the permit's own: a new acquire has a new id
  withdrawal.what = what;
  withdrawal.settle = redis_settle(
      core_, keys().name,
      [resource = resource_, raw = id.raw, record, request,
       window = std::to_string(core_.retry_window_ms())](Connection& connection) {
        const PermitKeys& keys = resource->keys;
        return PermitScripts::withdraw()
            .run(connection, {keys.name, keys.channel, keys.timeouts, record}, {raw, request, window})
            .integer("withdraw a permit acquire of '" + keys.name + "'");
      });
  core_.settle_later(std::move(withdrawal));
}

bool PermitSemaphore::run_release(const std::string& raw_id) {
  const std::string request_id = core_.request_id();
  return redis_session(core_).execute(keys().name, [&](Connection& connection) {
    return resource_->release(connection, raw_id, request_id, core_.retry_window_ms());
  });
}

void PermitSemaphore::release(std::string_view text) {
  const PermitId id = PermitId::parse(text, "permit_id");
  core_.throw_if_closed();
  // Out of the table first: from here on the watchdog no longer renews it.
  const std::optional<Hold> hold = core_.holds().take_if_outermost(keys().name, id.owner);
  const bool ours = hold && hold->grant.owner_field == id.raw;
  if (hold && !ours) core_.holds().insert(*hold);  // another id's hold under the same 62 random bits
  bool released = false;
  const Clock::time_point sent_at = Clock::now();
  try {
    released = run_release(id.raw);
  } catch (const Error&) {
    if (!ours || !hold->lost) throw;
    // Lost already: the error that matters is the loss.
  }
  if (!ours) {
    if (!released) throw NotOwnerError(not_held_message(text, keys().name));
    return;
  }
  Hold ended = *hold;
  if (!ended.lost && !released) {
    // Found here first (e.g. the process was paused past the lease): the
    // hold has left the table, so this is the one and only notice.
    ended.end(sent_at);
    LostNotice::of(ended, lost_at_release).deliver(core_.stats(), core_.describe());
  }
  if (ended.lost) {
    throw_ended(ended, "release: the permit '" + std::string(text) + "' of '" + keys().name + "'",
                "was lost (its watchdog lease lapsed, or it was taken back before its lease ended, "
                "and it returned to the pool)");
  }
}

bool PermitSemaphore::try_set_permits(int permits) {
  core_.throw_if_closed();
  const std::string count = std::to_string(permits);
  return redis_session(core_).execute(keys().name, [&](Connection& connection) {
    return PermitScripts::try_set_permits()
        .run(connection, {keys().name, keys().channel}, {count})
        .integer_is_one("try_set_permits '" + keys().name + "'");
  });
}

int64_t PermitSemaphore::available_permits() {
  core_.throw_if_closed();
  return redis_session(core_).execute(keys().name, [&](Connection& connection) {
    return PermitScripts::available()
        .run(connection, {keys().name, keys().timeouts, keys().channel}, {})
        .integer("available permits of '" + keys().name + "'");
  });
}

}  // namespace dlock
