#include "primitives/semaphore/semaphore.hpp"

#include "backends/redis/net/composed_script.hpp"
#include "backends/redis/redis_semaphore_ops.hpp"
#include "backends/redis/redis_session.hpp"
#include "backends/redis/redis_settle.hpp"
#include "common/error.hpp"
#include "core/count_key.hpp"
#include "core/key_names.hpp"
#include "core/release_attempts.hpp"
#include "core/requests_lua.hpp"
#include "primitives/semaphore/semaphore_lua.hpp"

namespace dlock {
namespace {

Script& acquire_script() {
  static ComposedScript script("semaphore acquire", {lua::requests, lua::semaphore::acquire});
  return script.script();
}
Script& release_script() {
  static ComposedScript script("semaphore release", {lua::requests, lua::semaphore::release});
  return script.script();
}
Script& withdraw_script() {
  static ComposedScript script("semaphore withdraw", {lua::requests, lua::semaphore::withdraw});
  return script.script();
}
Script& try_set_permits_script() {
  static Script script("semaphore try_set_permits", lua::semaphore::try_set_permits);
  return script;
}

}  // namespace

SemaphoreKeys::SemaphoreKeys(std::string semaphore_name) : name(std::move(semaphore_name)) {
  check_name(name, "channel");
  channel = prefixed("redisson_sc", name);
  latch = prefixed("dlock_semaphore_latch", name);
}

std::string Semaphore::record_of(uint64_t owner) const {
  return keys_->latch + ":" + core_.field(owner);
}

void Semaphore::withdraw_later(const std::string& record, const std::string& count,
                               const std::string& request, const std::string& what) {
  PendingRequest withdrawal;
  withdrawal.caller = record;
  withdrawal.what = what;
  withdrawal.settle =
      redis_settle(core_, keys_->name,
                   [keys = *keys_, record, count, request,
                    window = std::to_string(core_.retry_window_ms())](Connection& connection) {
                     return withdraw_script()
                         .run(connection, {keys.name, keys.channel, record}, {count, request, window})
                         .integer("withdraw an acquire of '" + keys.name + "'");
                   });
  core_.settle_later(std::move(withdrawal));
}

// The semaphore's side of a wait: every release message wakes all its
// waiters (one release may satisfy several).
class SemaphoreAcquire final : public ReleaseAttempts {
 public:
  SemaphoreAcquire(const Semaphore& semaphore, uint64_t owner, int permits)
      : ReleaseAttempts(semaphore.core_,
                        std::make_unique<RedisSemaphoreOps>(semaphore.core_, semaphore.keys_->channel)),
        semaphore_(semaphore),
        permits_(permits),
        count_(std::to_string(permits)),
        record_(semaphore.record_of(owner)),
        what_("acquire " + count_ + " permits of '" + semaphore.keys_->name + "'") {}

  const std::string& what() const { return what_; }

  Outcome attempt(int64_t /*wait_left_ms*/, bool /*woken_by_message*/) override {
    ClientCore& core = semaphore_.core_;
    const SemaphoreKeys& keys = *semaphore_.keys_;
    if (!settled_) {
      core.settle_pending(record_);  // a withdrawal, or a release, left by an error
      settled_ = true;
    }
    const std::string window = std::to_string(core.retry_window_ms());
    // One request id per attempt, kept across its retries (see acquire.lua).
    const std::string request = core.request_id();
    bool taken = false;
    try {
      taken = redis_session(core).execute(keys.name, [&](Connection& connection) {
        return acquire_script()
            .run(connection, {keys.name, record_}, {count_, request, window})
            .integer_is_one(what_);
      });
    } catch (const ConnectionError&) {
      // The server may still run it: the caller must not have its permits.
      semaphore_.withdraw_later(record_, count_, request, what_);
      throw;
    }
    if (!taken) return {false, std::nullopt};
    ClientStats::count(core.stats().grants);
    semaphore_.state_->taken += permits_;
    return {true, std::nullopt};
  }

 private:
  Semaphore semaphore_;
  const int permits_;
  const std::string count_;
  const std::string record_;
  const std::string what_;
  bool settled_ = false;
};

std::shared_ptr<WaitProcess> Semaphore::acquire_wait(uint64_t owner, int permits, int64_t wait_ms,
                                                     Cancel* cancel) {
  auto acquire = std::make_shared<SemaphoreAcquire>(*this, owner, permits);
  return std::make_shared<WaitProcess>(acquire, WaitSpec{wait_ms, cancel, &core_.stats(), acquire->what()});
}

bool Semaphore::give_back_taken(int permits) {
  int64_t taken = state_->taken.load();
  while (taken >= permits && !state_->taken.compare_exchange_weak(taken, taken - permits)) {
  }
  return taken >= permits;
}

void Semaphore::release(uint64_t owner, int permits) {
  core_.throw_if_closed();
  const std::string count = std::to_string(permits);
  const std::string record = record_of(owner);
  const std::string what = "release " + count + " permits of '" + keys_->name + "'";
  const std::optional<SettledRequest> earlier = core_.settle_pending(record);
  if (earlier && earlier->finish && earlier->what == what) {
    // The same release after it failed: it was that one's retry, now applied once.
    throw_if_lost(earlier->answer, what);
    return;
  }
  // Taken off before the call, whatever its outcome: they are this handle's to return once.
  const std::string taken = give_back_taken(permits) ? "1" : "0";
  PendingRequest release;
  release.caller = record;
  release.what = what;
  release.finish = true;
  release.settle =
      redis_settle(core_, keys_->name,
                   [keys = *keys_, record, count, request = core_.request_id(),
                    window = std::to_string(core_.retry_window_ms()), taken, what](Connection& connection) {
                     return release_script()
                         .run(connection, {keys.name, keys.channel, record}, {count, request, window, taken})
                         .integer(what);
                   });
  throw_if_lost(core_.execute_once(std::move(release)), what);
}

void Semaphore::throw_if_lost(int64_t released, const std::string& what) {
  if (released == 2) {
    throw LostError(what +
                    ": the semaphore's key vanished while they were taken (a restart without "
                    "persistence, or a failover, lost it); nothing was added: try_set_permits sets it again");
  }
}

bool Semaphore::try_set_permits(int permits) {
  core_.throw_if_closed();
  const std::string count = std::to_string(permits);
  return redis_session(core_).execute(keys_->name, [&](Connection& connection) {
    return try_set_permits_script()
        .run(connection, {keys_->name, keys_->channel}, {count})
        .integer_is_one("try_set_permits '" + keys_->name + "'");
  });
}

int64_t Semaphore::available_permits() {
  core_.throw_if_closed();
  return redis_session(core_).execute(
      keys_->name, [&](Connection& connection) { return read_count(connection, keys_->name); });
}

}  // namespace dlock
