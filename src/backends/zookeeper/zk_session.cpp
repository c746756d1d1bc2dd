#include "backends/zookeeper/zk_session.hpp"

#include <zookeeper/zookeeper.h>

#include <cerrno>
#include <mutex>
#include <utility>

#include "backends/zookeeper/zk_call.hpp"
#include "common/error.hpp"

namespace dlock {
namespace zk {
namespace {

SessionState from_client_state(int state) {
  if (state == ZOO_CONNECTED_STATE || state == ZOO_READONLY_STATE) return SessionState::connected;
  if (state == ZOO_EXPIRED_SESSION_STATE) return SessionState::expired;
  if (state == ZOO_AUTH_FAILED_STATE) return SessionState::auth_failed;
  return SessionState::suspended;  // connecting or associating again
}

// "h1:p1,h2:p2/app/locks" -> "/app/locks"; "" without a chroot.
std::string chroot_of(const std::string& hosts) {
  const auto slash = hosts.find('/');
  return slash == std::string::npos ? std::string() : hosts.substr(slash);
}

// The C client's own log goes to stderr, which is not a library's to write
// on; and its connection-error lines format the server's address in one
// static buffer shared by every session (zoo_get_current_server, 3.8), a data
// race between sessions. Level 0 turns it off, before the arguments are
// formatted. Set once: the level is one process-wide variable the client's
// threads read.
void silence_client_log() {
  static std::once_flag once;
  std::call_once(once, [] { zoo_set_debug_level(static_cast<ZooLogLevel>(0)); });
}

}  // namespace

const char* to_string(SessionState state) {
  switch (state) {
    case SessionState::connecting:
      return "connecting";
    case SessionState::connected:
      return "connected";
    case SessionState::suspended:
      return "suspended";
    case SessionState::expired:
      return "expired";
    case SessionState::auth_failed:
      return "auth failed";
    case SessionState::closed:
      return "closed";
  }
  return "unknown";
}

ZkSession::ZkSession(SessionOptions options, StateCallback on_state_change)
    : options_(std::move(options)), on_state_change_(std::move(on_state_change)) {
  silence_client_log();
  handle_ =
      zookeeper_init(options_.hosts.c_str(), on_session_event, options_.session_timeout_ms, nullptr, this, 0);
  if (!handle_) {
    throw InvalidArgument("ZooKeeper hosts '" + options_.hosts + "' cannot be used: " + zerror(errno));
  }
  try {
    if (!wait_connected(options_.connect_timeout)) {
      throw ConnectionError("no ZooKeeper session on " + options_.hosts + " within " +
                            std::to_string(options_.connect_timeout.count()) + " ms (state " +
                            to_string(state()) + ")");
    }
    add_credentials();
    check_chroot_exists();
  } catch (...) {
    close();
    throw;
  }
}

ZkSession::~ZkSession() {
  close();
}

void ZkSession::on_session_event(zhandle_t*, int type, int state, const char*, void* context) {
  if (type != ZOO_SESSION_EVENT) return;
  static_cast<ZkSession*>(context)->record_state(from_client_state(state));
}

void ZkSession::record_state(SessionState state) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_ == SessionState::closed) return;
    state_ = state;
  }
  state_changed_.notify_all();
  if (on_state_change_) on_state_change_(state);
}

bool ZkSession::wait_connected(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return state_changed_.wait_for(lock, timeout, [&] {
    return state_ == SessionState::connected || state_ == SessionState::expired ||
           state_ == SessionState::auth_failed || state_ == SessionState::closed;
  }) && state_ == SessionState::connected;
}

void ZkSession::add_credentials() {
  if (options_.digest_credentials.empty()) return;
  const std::string user = options_.digest_credentials.substr(0, options_.digest_credentials.find(':'));
  auto answer = send_add_auth(*this, "digest", options_.digest_credentials);
  const int rc = await(*this, answer, "addAuth digest", user);
  if (rc != ZOK) raise_for(rc, "addAuth digest of user", user);  // the user, never the password
}

void ZkSession::check_chroot_exists() {
  // Under a chroot "/" is the chroot itself: a wrong one would make every lock wait forever.
  const StatResult root = exists(*this, "/");
  if (root.rc == ZOK) return;
  const std::string chroot = chroot_of(options_.hosts);
  if (root.rc == ZNONODE) {
    throw InvalidArgument("ZooKeeper chroot " + chroot + " does not exist on " + options_.hosts);
  }
  raise_for(root.rc, "exists", chroot.empty() ? "/" : chroot);
}

int ZkSession::negotiated_timeout_ms() const {
  return handle_ ? zoo_recv_timeout(handle_) : 0;
}

SessionState ZkSession::state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return state_;
}

std::int64_t ZkSession::session_id() const {
  return handle_ ? zoo_client_id(handle_)->client_id : 0;
}

Clock::time_point ZkSession::last_confirmed_contact() const {
  return Clock::time_point(Clock::duration(last_contact_.load()));
}

void ZkSession::confirm_contact(Clock::time_point sent_at) {
  const Clock::rep sent = sent_at.time_since_epoch().count();
  Clock::rep known = last_contact_.load();
  while (sent > known && !last_contact_.compare_exchange_weak(known, sent)) {
  }
}

bool ZkSession::may_have_expired(Clock::time_point now) const {
  return now - last_confirmed_contact() >= std::chrono::milliseconds(negotiated_timeout_ms());
}

void ZkSession::request_sent() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++requests_in_flight_;
}

void ZkSession::request_answered() {
  // Notified under the lock: once close() sees none in flight it may destroy
  // this object, and this thread must not touch it after unlocking.
  std::lock_guard<std::mutex> lock(mutex_);
  if (--requests_in_flight_ == 0) all_answered_.notify_all();
}

void ZkSession::close() noexcept {
  if (!handle_) return;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    all_answered_.wait_for(lock, options_.command_timeout, [this] { return requests_in_flight_ == 0; });
  }
  // What is still in flight completes with ZCLOSING inside zookeeper_close, with
  // this object alive (but for the race above, which then leaks its completion).
  zookeeper_close(handle_);
  handle_ = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    state_ = SessionState::closed;
  }
  state_changed_.notify_all();
}

void ZkSession::abandon_in_child() noexcept {
  // The child has the handle's memory but not the client's threads; closing it would
  // send the parent's session a goodbye. Leaked on purpose. No lock: the child has
  // one thread, and a mutex some parent thread held at fork() stays locked here.
  handle_ = nullptr;
  state_ = SessionState::closed;
}

}  // namespace zk
}  // namespace dlock
