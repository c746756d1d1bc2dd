#include "primitives/lock/lock_member.hpp"

#include "common/error.hpp"
#include "primitives/lock/acquire_process.hpp"
#include "primitives/lock/reentrant_lock.hpp"

namespace dlock {

ReentrantLockMember::ReentrantLockMember(std::shared_ptr<Client> client, std::shared_ptr<LockOps> ops)
    : client_(std::move(client)), ops_(std::move(ops)) {
  const ClientConfig& config = client_->core()->config();
  server_ = config.describe() + "/" + std::to_string(config.db);
}

LockMember::Outcome ReentrantLockMember::try_once(uint64_t owner, int64_t lease_ms,
                                                  const std::shared_ptr<LostCallback>& on_lost) {
  std::shared_ptr<ClientCore> core = client_->core();
  AcquireRequest request;
  request.owner = owner;
  request.wait_ms = 0;
  request.lease_ms = lease_ms;
  request.on_lost = on_lost;
  ReentrantLock lock(*core, ops_);
  if (lock.reenter(owner)) return {true, -1};
  auto acquire = std::make_shared<AcquireProcess>(lock, request);
  if (WaitProcess(acquire, acquire->spec()).run()) return {true, -1};
  return {false, acquire->holder_ttl_ms()};
}

bool ReentrantLockMember::reenter(uint64_t owner) {
  std::shared_ptr<ClientCore> core = client_->core();
  return ReentrantLock(*core, ops_).reenter(owner).has_value();
}

std::unique_ptr<WaitWatch> ReentrantLockMember::watch(Waiter& waiter) {
  return ops_->watch_releases(waiter);
}

void ReentrantLockMember::release(uint64_t owner) {
  std::shared_ptr<ClientCore> core = client_->core();
  ReentrantLock(*core, ops_).release(owner);
}

void ReentrantLockMember::release_unrecorded(uint64_t owner) noexcept {
  try {
    std::shared_ptr<ClientCore> core = client_->core();
    ReentrantLock(*core, ops_).release_unrecorded(owner);
  } catch (...) {
    // Closed or out of memory: an unrecorded grant lapses with its lease.
  }
}

std::optional<LockMember::Clock::time_point> ReentrantLockMember::valid_until(uint64_t owner) {
  const std::optional<Hold> hold = client_->core()->holds().find(ops_->hold_key(), owner);
  if (!hold || hold->lost) return std::nullopt;
  return hold->valid_until;
}

bool ReentrantLockMember::expired(uint64_t owner) {
  const std::optional<Hold> hold = client_->core()->holds().find(ops_->hold_key(), owner);
  return hold && hold->expired;
}

bool ReentrantLockMember::closed() {
  try {
    return client_->core()->closed();
  } catch (const ClosedError&) {
    return true;
  }
}

AsyncRunner& ReentrantLockMember::async_runner() {
  // The client owns the core, and the core its runner.
  return client_->core()->async_runner();
}

int64_t ReentrantLockMember::watchdog_lease_ms() {
  return client_->core()->config().watchdog_timeout_ms;
}

}  // namespace dlock
