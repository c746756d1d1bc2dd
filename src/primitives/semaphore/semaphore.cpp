#include "primitives/semaphore/semaphore.hpp"

#include "common/error.hpp"
#include "core/channel_attempts.hpp"
#include "core/count_key.hpp"
#include "core/key_names.hpp"
#include "primitives/semaphore/semaphore_lua.hpp"

namespace dlock {
namespace {

Script& acquire_script() {
  static Script script("semaphore acquire", lua::semaphore::acquire);
  return script;
}
Script& release_script() {
  static Script script("semaphore release", lua::semaphore::release);
  return script;
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

std::string Semaphore::latch_of(uint64_t owner) const {
  return keys_->latch + ":" + core_.field(owner);
}

// The semaphore's side of a wait: every release message wakes all its
// waiters (one release may satisfy several).
class SemaphoreAcquire final : public ChannelAttempts {
 public:
  SemaphoreAcquire(const Semaphore& semaphore, uint64_t owner, int permits)
      : ChannelAttempts(semaphore.core_, semaphore.keys_->channel),
        semaphore_(semaphore),
        permits_(permits),
        count_(std::to_string(permits)),
        latch_(semaphore.latch_of(owner)),
        what_("acquire " + count_ + " permits of '" + semaphore.keys_->name + "'") {}

  const std::string& what() const { return what_; }

  Outcome attempt(int64_t /*wait_left_ms*/, bool /*woken_by_message*/) override {
    ClientCore& core = semaphore_.core_;
    const SemaphoreKeys& keys = *semaphore_.keys_;
    const std::string window = std::to_string(core.retry_window_ms());
    // One request id per attempt, kept across its retries (see acquire.lua).
    const std::string request = core.request_id();
    const bool taken = core.execute(keys.name, [&](Connection& connection) {
      return acquire_script().run(connection, {keys.name, latch_}, {count_, request, window}).integer_is_one(what_);
    });
    if (!taken) return {false, std::nullopt};
    ClientStats::count(core.stats().grants);
    semaphore_.state_->taken += permits_;
    return {true, std::nullopt};
  }

 private:
  Semaphore semaphore_;
  const int permits_;
  const std::string count_;
  const std::string latch_;
  const std::string what_;
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
  const std::string latch = latch_of(owner);
  const std::string window = std::to_string(core_.retry_window_ms());
  const std::string request = core_.request_id();
  const std::string what = "release " + count + " permits of '" + keys_->name + "'";
  // Taken off before the call, whatever its outcome: they are this handle's to return once.
  const std::string taken = give_back_taken(permits) ? "1" : "0";
  const int64_t released = core_.execute(keys_->name, [&](Connection& connection) {
    return release_script()
        .run(connection, {keys_->name, keys_->channel, latch}, {count, request, window, taken})
        .integer(what);
  });
  if (released == 2) {
    throw LostError(what + ": the semaphore's key vanished while they were taken (a restart without "
                    "persistence, or a failover, lost it); nothing was added: try_set_permits sets it again");
  }
}

bool Semaphore::try_set_permits(int permits) {
  core_.throw_if_closed();
  const std::string count = std::to_string(permits);
  return core_.execute(keys_->name, [&](Connection& connection) {
    return try_set_permits_script()
        .run(connection, {keys_->name, keys_->channel}, {count})
        .integer_is_one("try_set_permits '" + keys_->name + "'");
  });
}

int64_t Semaphore::available_permits() {
  core_.throw_if_closed();
  return core_.execute(keys_->name, [&](Connection& connection) { return read_count(connection, keys_->name); });
}

}  // namespace dlock
