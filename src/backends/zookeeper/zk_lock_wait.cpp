#include "backends/zookeeper/zk_lock_wait.hpp"

#include "common/error.hpp"

namespace dlock {

void ZkUnheardNodes::waiting(const std::string& owner_field, const std::vector<zk::QueuedNode>& nodes) {
  std::lock_guard<std::mutex> lock(mutex_);
  nodes_[owner_field] = nodes;
}

void ZkUnheardNodes::ended(const std::string& owner_field, const std::vector<zk::QueuedNode>& nodes) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = nodes_.find(owner_field);
  if (found != nodes_.end() && found->second == nodes) nodes_.erase(found);
}

std::optional<std::vector<zk::QueuedNode>> ZkUnheardNodes::nodes_of(const std::string& owner_field) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = nodes_.find(owner_field);
  if (found == nodes_.end()) return std::nullopt;
  return found->second;
}

ZkLockWait::ZkLockWait(std::function<std::shared_ptr<zk::ZkSession>()> session, const ZkLockLayout& layout,
                       std::string owner_field, std::string node_data,
                       std::shared_ptr<ZkUnheardNodes> unheard)
    : session_of_(std::move(session)),
      layout_(layout),
      owner_field_(std::move(owner_field)),
      node_data_(std::move(node_data)),
      unheard_(std::move(unheard)) {}

ZkLockWait::~ZkLockWait() {
  end_wait();
}

zk::ZkCheck ZkLockWait::begin() {
  end_wait();
  begun_ = false;
  recipe_.reset();  // before its session may go
  session_ = session_of_();
  recipe_ = layout_.queue(*session_, node_data_);
  unheard_->waiting(owner_field_, recipe_->queued_nodes());
  const zk::ZkCheck check = recipe_->begin();
  begun_ = true;
  return check;
}

LockWait::Try ZkLockWait::attempt(int64_t /*wait_left_ms*/, bool /*woken_by_message*/) {
  riding_out_ = false;
  try {
    return try_once();
  } catch (const ConnectionError&) {
    if (queued_on_expired_session()) {
      // Our node (made, or being made) went with the session: queue again,
      // on the client's new one. An error there ends the wait.
      begun_ = false;
      return try_once();
    }
    if (!begun_ || !zk::may_still_own_nodes(*session_)) throw;
    riding_out_ = true;
    Try outcome;
    outcome.sent_at = Clock::now();
    outcome.retry_after = zk::reconnect_pause;
    return outcome;
  }
}

LockWait::Try ZkLockWait::try_once() {
  Try outcome;
  outcome.sent_at = Clock::now();
  zk::ZkCheck check;
  try {
    check = begun_ ? recipe_->attempt() : begin();
  } catch (const LostError&) {
    // Our node was deleted while we waited (a force release, an admin)
    // with the session alive (an expired one answers with an error): queue again.
    check = begin();
  }
  if (!check.granted) return outcome;
  outcome.granted = true;
  outcome.token = check.token;
  outcome.locator = recipe_->node_path();
  unheard_->ended(owner_field_, recipe_->queued_nodes());
  return outcome;
}

void ZkLockWait::watch(Waiter& waiter) {
  if (riding_out_) return;
  try {
    recipe_->watch([&waiter] { waiter.signal(); });
  } catch (const ConnectionError&) {
    if (!queued_on_expired_session() && !zk::may_still_own_nodes(*session_)) throw;
    waiter.signal();  // the next try rides the broken connection out, or queues again
  }
}

bool ZkLockWait::queued_on_expired_session() const {
  return session_->state() == zk::SessionState::expired;
}

void ZkLockWait::abandon() noexcept {
  if (recipe_) recipe_->abandon();
  end_wait();
}

void ZkLockWait::end_wait() noexcept {
  // A withdrawal took the prefix when it was queued, before the wait stopped.
  if (recipe_) unheard_->ended(owner_field_, recipe_->queued_nodes());
}

}  // namespace dlock
