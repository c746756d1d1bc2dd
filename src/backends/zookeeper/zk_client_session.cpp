#include "backends/zookeeper/zk_client_session.hpp"

#include <cstdio>
#include <utility>

#include "backends/zookeeper/zk_nodes.hpp"
#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {

namespace {

zk::SessionOptions session_options(const zk::ZkUrl& url, const ClientConfig& config) {
  zk::SessionOptions options = url.session;
  options.connect_timeout = std::chrono::milliseconds(config.connect_timeout_ms);
  options.command_timeout = std::chrono::milliseconds(config.command_timeout_ms);
  return options;
}

// How ZooKeeper's own logs write a session id: 0x and hex.
std::string session_id_text(std::int64_t id) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(id));
  return text;
}

}  // namespace

ZkClientSession::ZkClientSession(const zk::ZkUrl& url, const ClientConfig& config)
    : server_(url.server()),
      options_(session_options(url, config)),
      session_(open_session()),
      keeper_([this] { return current(); }) {}

std::shared_ptr<zk::ZkSession> ZkClientSession::open_session() {
  return std::make_shared<zk::ZkSession>(options_, [this](zk::SessionState state) { on_state_change(state); });
}

std::shared_ptr<zk::ZkSession> ZkClientSession::current() const {
  std::lock_guard<std::mutex> lock(session_mutex_);
  return session_;
}

std::shared_ptr<zk::ZkSession> ZkClientSession::zk() {
  std::lock_guard<std::mutex> lock(session_mutex_);
  if (session_->state() != zk::SessionState::expired || closing_.load()) return session_;
  const std::string expired = session_id_text(session_->session_id());
  try {
    session_ = open_session();  // the expired one lives on while a caller still has it
  } catch (const Error& error) {
    if (log::enabled(DLOCK_LOG_WARN)) {
      log::emit(DLOCK_LOG_WARN, "no new ZooKeeper session on " + server_ + " after " + expired +
                                    " expired: " + error.what());
    }
    throw ConnectionError(server_ + ": the ZooKeeper session " + expired +
                          " expired and no new one could be opened: " + error.what());
  }
  reconnects_.fetch_add(1);
  if (log::enabled(DLOCK_LOG_INFO)) {
    log::emit(DLOCK_LOG_INFO, "opened ZooKeeper session " + session_id_text(session_->session_id()) + " on " +
                                  server_ + " in place of " + expired + ", which the server expired");
  }
  return session_;
}

void ZkClientSession::close() {
  std::lock_guard<std::mutex> lock(session_mutex_);
  closing_.store(true);
  session_->close();
}

int64_t ZkClientSession::watchdog_lease_ms(int64_t /*configured*/) const {
  return int64_t{current()->negotiated_timeout_ms()} * 2 / 3;
}

void ZkClientSession::on_state_change(zk::SessionState state) {
  if (state == zk::SessionState::suspended) {
    was_suspended_.store(true);
    return;
  }
  if (state == zk::SessionState::expired && log::enabled(DLOCK_LOG_WARN)) {
    log::emit(DLOCK_LOG_WARN, "the ZooKeeper session on " + server_ +
                                  " expired: its holds are lost; the next call opens a new session");
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
  const std::shared_ptr<zk::ZkSession> session = zk();
  if (!session->wait_connected(session->command_timeout())) {
    throw ConnectionError(server_ + ": the ZooKeeper session is " + zk::to_string(session->state()));
  }
}

void ZkClientSession::release(const Hold& hold, const std::string& /*request_id*/, int64_t /*latch_ms*/,
                              std::optional<Clock::time_point> /*once_before*/) {
  zk::delete_held(*zk(), hold.grant.locator, "lock");
}

std::shared_ptr<zk::ZkSession> zk_session(ClientCore& core) {
  return dynamic_cast<ZkClientSession&>(core.session()).zk();
}

ClientConfig zk_client_config(ClientConfig base, const zk::ZkUrl& url) {
  if (url.connect_timeout_ms) base.connect_timeout_ms = *url.connect_timeout_ms;
  if (url.command_timeout_ms) base.command_timeout_ms = *url.command_timeout_ms;
  return base;
}

}  // namespace dlock
