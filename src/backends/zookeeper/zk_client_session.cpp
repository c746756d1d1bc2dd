#include "backends/zookeeper/zk_client_session.hpp"

#include <utility>

#include "backends/zookeeper/zk_nodes.hpp"
#include "common/error.hpp"

namespace dlock {

namespace {

zk::SessionOptions session_options(const zk::ZkUrl& url, const ClientConfig& config) {
  zk::SessionOptions options = url.session;
  options.connect_timeout = std::chrono::milliseconds(config.connect_timeout_ms);
  options.command_timeout = std::chrono::milliseconds(config.command_timeout_ms);
  return options;
}

}  // namespace

ZkClientSession::ZkClientSession(const zk::ZkUrl& url, const ClientConfig& config)
    : server_(url.server()),
      session_(session_options(url, config), [this](zk::SessionState state) { on_state_change(state); }),
      keeper_([this]() -> zk::ZkSession& { return session_; }) {}

int64_t ZkClientSession::watchdog_lease_ms(int64_t /*configured*/) const {
  return int64_t{session_.negotiated_timeout_ms()} * 2 / 3;
}

void ZkClientSession::on_state_change(zk::SessionState state) {
  if (state == zk::SessionState::suspended) {
    was_suspended_.store(true);
    return;
  }
  if (state == zk::SessionState::connected && was_suspended_.exchange(false)) reconnects_.fetch_add(1);
  // Back, or expired: every hold is checked now rather than at its next renewal.
  std::lock_guard<std::mutex> lock(check_mutex_);
  if (check_holds_now_) check_holds_now_();
}

void ZkClientSession::start(std::function<void()> check_holds_now) {
  std::lock_guard<std::mutex> lock(check_mutex_);
  check_holds_now_ = std::move(check_holds_now);
}

void ZkClientSession::ping() {
  if (!session_.wait_connected(session_.command_timeout())) {
    throw ConnectionError(server_ + ": the ZooKeeper session is " + zk::to_string(session_.state()));
  }
}

void ZkClientSession::release(const Hold& hold, const std::string& /*request_id*/, int64_t /*latch_ms*/,
                              std::optional<Clock::time_point> /*once_before*/) {
  zk::delete_held(session_, hold.grant.locator, "lock");
}

zk::ZkSession& zk_session(ClientCore& core) {
  return dynamic_cast<ZkClientSession&>(core.session()).zk();
}

ClientConfig zk_client_config(ClientConfig base, const zk::ZkUrl& url) {
  if (url.connect_timeout_ms) base.connect_timeout_ms = *url.connect_timeout_ms;
  if (url.command_timeout_ms) base.command_timeout_ms = *url.command_timeout_ms;
  return base;
}

}  // namespace dlock
