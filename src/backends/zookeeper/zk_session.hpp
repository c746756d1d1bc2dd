// One ZooKeeper session (the multi-threaded C client's handle) opened from a
// connect string with an optional chroot ("h1:p1,h2:p2/chroot"), and what the
// rest of the backend needs to know about it: its negotiated timeout, its state
// (connected / suspended / expired) and when the server last confirmed it
// (docs/design/backends.md 2.4, 2.6).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

typedef struct _zhandle zhandle_t;

namespace dlock {
namespace zk {

using Clock = std::chrono::steady_clock;

enum class SessionState {
  connecting,  // not yet connected once
  connected,
  suspended,  // the connection broke; the C client is reconnecting (the session may live on)
  expired,    // the server ended the session: its ephemeral nodes are gone
  auth_failed,
  closed,
};

const char* to_string(SessionState state);

struct SessionOptions {
  std::string hosts;              // zookeeper_init's host list, chroot included
  int session_timeout_ms = 4000;  // asked for; the server clamps it (negotiated_timeout_ms())
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds command_timeout{5000};
  // "user:password" for the digest scheme, added to the session's identities
  // at open (and by the C client again on each reconnection); empty: none.
  std::string digest_credentials;
};

class ZkSession {
 public:
  // Runs on the C client's completion thread: it may only record or signal.
  using StateCallback = std::function<void(SessionState)>;

  // Returns once the session is connected, its credentials added and the
  // chroot exists. Throws ConnectionError when no server answers within
  // connect_timeout, AuthError when the server refuses the credentials or the
  // chroot, and InvalidArgument when the chroot does not exist. (The digest
  // scheme accepts any credentials: a wrong password is refused by the ACLs.)
  explicit ZkSession(SessionOptions options, StateCallback on_state_change = {});
  ~ZkSession();
  ZkSession(const ZkSession&) = delete;
  ZkSession& operator=(const ZkSession&) = delete;

  zhandle_t* handle() const { return handle_; }
  const std::string& hosts() const { return options_.hosts; }
  std::chrono::milliseconds command_timeout() const { return options_.command_timeout; }
  // What the server granted (it clamps the asked timeout to its min and max).
  int negotiated_timeout_ms() const;
  SessionState state() const;
  std::int64_t session_id() const;

  // Waits until the session is connected (again); false after `timeout`, or
  // at once when it expired, failed authentication or was closed.
  bool wait_connected(std::chrono::milliseconds timeout);

  // The send time of the last request the server answered: the session was
  // alive then, and the server expires it no sooner than the negotiated timeout later.
  Clock::time_point last_confirmed_contact() const;
  void confirm_contact(Clock::time_point sent_at);
  // Whether the server may have expired the session by `now`: no answer has
  // confirmed it alive within the negotiated timeout. A process paused or cut
  // off that long must not count on its ephemeral nodes, whatever the C client
  // has yet to say; a holder keeps this false by asking something each period.
  bool may_have_expired(Clock::time_point now) const;
  // How many times a caller waited for an answer (zk_call's await): requests
  // pipelined behind one another cost one wait. What the mutex's "one round
  // trip per uncontended acquire" is measured with.
  std::uint64_t waits_for_server() const { return waits_for_server_.load(); }
  void count_wait_for_server() { ++waits_for_server_; }

  // zk_call's requests that have no answer yet: one is counted before it is
  // sent and answered once its completion has run (or at once when the client
  // refused to send it). close() waits for them, see there.
  void request_sent();
  void request_answered();

  // Ends the session (its ephemeral nodes go at once). Idempotent. Gives the
  // requests in flight up to the command timeout to be answered first: a
  // completion the C client fails with ZCLOSING inside zookeeper_close can be
  // queued after its completion thread has stopped (the thread leaves as soon
  // as it sees the close requested), and is then never run nor freed.
  void close() noexcept;
  // After fork(), in the child: forgets the inherited handle without
  // zookeeper_close, which would end the parent's session and free its locks.
  void abandon_in_child() noexcept;

 private:
  static void on_session_event(zhandle_t* handle, int type, int state, const char* path, void* context);
  void record_state(SessionState state);
  void add_credentials();
  void check_chroot_exists();

  SessionOptions options_;
  StateCallback on_state_change_;
  zhandle_t* handle_ = nullptr;
  mutable std::mutex mutex_;
  std::condition_variable state_changed_;
  SessionState state_ = SessionState::connecting;
  std::size_t requests_in_flight_ = 0;
  std::condition_variable all_answered_;
  std::atomic<Clock::rep> last_contact_{0};
  std::atomic<std::uint64_t> waits_for_server_{0};
};

}  // namespace zk
}  // namespace dlock
