#include "primitives/semaphore/semaphore.hpp"

#include "common/error.hpp"
#include "core/channel_wait.hpp"
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

bool Semaphore::acquire(uint64_t owner, int permits, int64_t wait_ms, Cancel* cancel) {
  const std::string count = std::to_string(permits);
  const std::string latch = latch_of(owner);
  const std::string window = std::to_string(core_.retry_window_ms());
  const std::string what = "acquire " + count + " permits of '" + keys_->name + "'";
  auto attempt = [&](bool /*by_message*/) {
    // One request id per attempt, kept across its retries (see acquire.lua).
    const std::string request = core_.request_id();
    const bool taken = core_.execute(keys_->name, [&](Connection& connection) {
      return acquire_script()
          .run(connection, {keys_->name, latch}, {count, request, window})
          .integer_is_one(what);
    });
    return ChannelAttempt<bool>{taken ? std::optional<bool>(true) : std::nullopt, std::nullopt};
  };
  const bool taken = wait_on_channel<bool>(core_, keys_->channel, wait_ms, cancel, what, attempt).has_value();
  if (taken) {
    ClientStats::count(core_.stats().grants);
    state_->taken += permits;
  }
  return taken;
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
