#include "backends/zookeeper/zk_lock_wait.hpp"

#include "common/error.hpp"

namespace dlock {

void ZkUnheardNodes::waiting(const std::string& owner_field, const std::string& prefix) {
  std::lock_guard<std::mutex> lock(mutex_);
  prefixes_[owner_field] = prefix;
}

void ZkUnheardNodes::ended(const std::string& owner_field, const std::string& prefix) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = prefixes_.find(owner_field);
  if (found != prefixes_.end() && found->second == prefix) prefixes_.erase(found);
}

std::optional<std::string> ZkUnheardNodes::prefix_of(const std::string& owner_field) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = prefixes_.find(owner_field);
  if (found == prefixes_.end()) return std::nullopt;
  return found->second;
}

ZkLockWait::ZkLockWait(zk::ZkSession& session, std::string lock_path, zk::MutexKind kind,
                       std::string owner_field, std::shared_ptr<ZkUnheardNodes> unheard)
    : session_(session),
      lock_path_(std::move(lock_path)),
      kind_(kind),
      owner_field_(std::move(owner_field)),
      unheard_(std::move(unheard)) {}

ZkLockWait::~ZkLockWait() {
  end_wait();
}

zk::ZkCheck ZkLockWait::begin() {
  end_wait();
  begun_ = false;
  mutex_ = std::make_unique<zk::ZkMutex>(session_, lock_path_, kind_, owner_field_);
  unheard_->waiting(owner_field_, mutex_->node_prefix());
  const zk::ZkCheck check = mutex_->begin();
  begun_ = true;
  return check;
}

LockWait::Try ZkLockWait::attempt(int64_t /*wait_left_ms*/, bool /*woken_by_message*/) {
  Try outcome;
  outcome.sent_at = Clock::now();
  riding_out_ = false;
  zk::ZkCheck check;
  try {
    try {
      check = begun_ ? mutex_->attempt() : begin();
    } catch (const LostError&) {
      // Our node was deleted while we waited (a force release, an admin)
      // with the session alive (an expired one answers with an error): queue again.
      check = begin();
    }
  } catch (const ConnectionError&) {
    if (!begun_ || !zk::may_still_own_nodes(session_)) throw;
    riding_out_ = true;
    outcome.retry_after = zk::reconnect_pause;
    return outcome;
  }
  if (!check.granted) return outcome;
  outcome.granted = true;
  outcome.token = check.token;
  outcome.locator = mutex_->node_path();
  unheard_->ended(owner_field_, mutex_->node_prefix());
  return outcome;
}

void ZkLockWait::watch(Waiter& waiter) {
  if (riding_out_) return;
  try {
    mutex_->watch([&waiter] { waiter.signal(); });
  } catch (const ConnectionError&) {
    if (!zk::may_still_own_nodes(session_)) throw;
    waiter.signal();  // the next try rides the broken connection out
  }
}

void ZkLockWait::abandon() noexcept {
  if (mutex_) mutex_->abandon();
  end_wait();
}

void ZkLockWait::end_wait() noexcept {
  // A withdrawal took the prefix when it was queued, before the wait stopped.
  if (mutex_) unheard_->ended(owner_field_, mutex_->node_prefix());
}

}  // namespace dlock
