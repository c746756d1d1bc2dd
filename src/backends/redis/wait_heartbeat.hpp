// The client's one thread that tells the server its waiters are alive.
// A primitive whose waiters leave an entry on the server while they wait (the
// fair lock's queue, the reentrant lock's waiting owners, the read-write lock's
// write intent) drops the entries not seen for a while, so a waiter that died
// or was paused leaves no lasting trace; every period this thread sends one
// pipelined round trip with one script call per queue, naming all of this
// client's waiters on it, and wakes those the server says must try again now.
// It also takes the entries of waiters that gave up off the server, at once, so
// that giving up (a cancel, an interrupt, a wait that ran out) never waits on
// the network.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/redis/net/router.hpp"
#include "backends/redis/net/script.hpp"
#include "core/holds.hpp"
#include "core/waiter.hpp"

namespace dlock {

// How often a waiting waiter's client says it is alive.
inline constexpr auto wait_heartbeat_period = std::chrono::milliseconds(250);
// A waiter's entry unseen for this long (three periods) is dropped, so a
// waiter that died or was paused leaves within a second: its last heartbeat
// came at most a period before, and the next script on the queue (another
// client's heartbeat, a release) drops it. A live waiter dropped after
// missing three heartbeats (a stalled host) is told to try again, which puts
// it back.
inline constexpr auto wait_liveness = 3 * wait_heartbeat_period;
// `local wait_liveness_ms = <wait_liveness>`: put before the scripts that drop
// unseen waiters (the reentrant lock's waiting owners, the fair lock's queue),
// so they and this heartbeat agree on one figure.
const char* wait_liveness_lua();

// What the heartbeat needs of the waiters' entries on the server (a queue).
class ServerQueue {
 public:
  virtual ~ServerQueue() = default;
  // The script that marks waiters seen, called with the keys, then the fixed
  // arguments, then the waiters' fields; it replies one integer per field,
  // 1 when that waiter must try again now.
  virtual Script& heartbeat_script() const = 0;
  virtual Argv heartbeat_keys() const = 0;
  virtual Argv heartbeat_args() const = 0;
  // Takes `field` out of the queue, passing on a grant it was given but never
  // took. One round trip, safe to retry.
  virtual void leave(Connection& connection, const std::string& field) const = 0;
};

class WaitHeartbeat {
 public:
  WaitHeartbeat(Router& router, const ClientConfig& config);
  ~WaitHeartbeat();
  WaitHeartbeat(const WaitHeartbeat&) = delete;
  WaitHeartbeat& operator=(const WaitHeartbeat&) = delete;

  using Ticket = uint64_t;
  // Beats for `field` on `queue` until remove(); signals `waiter` when the
  // server says so. Starts the thread on first use.
  Ticket add(std::shared_ptr<const ServerQueue> queue, std::string field, Waiter* waiter);
  // After it returns, the waiter is no longer signalled.
  void remove(Ticket ticket);
  // Takes `field` out of `queue` on the thread, now (best effort: a waiter
  // left behind is dropped when its heartbeat stops).
  void leave(std::shared_ptr<const ServerQueue> queue, std::string field);
  // Ends the thread, after the leaves asked for until now.
  void stop();

 private:
  struct Entry {
    std::shared_ptr<const ServerQueue> queue;
    std::string field;
    Waiter* waiter;
  };

  struct Leaving {
    std::shared_ptr<const ServerQueue> queue;
    std::string field;
  };

  // The waiters of this client on one queue.
  struct Group {
    std::shared_ptr<const ServerQueue> queue;
    std::vector<Ticket> tickets;
    std::vector<std::string> fields;
  };

  void run();
  void beat();
  // One node's pipeline, for the groups of `batch`; adds the waiters the
  // server says must try again now to `to_signal`.
  void beat_on_node(const Router::Batch& batch, const std::vector<Group>& groups,
                    std::vector<Ticket>& to_signal);
  void heartbeat_failed(const Error& error);
  void send_leaves(const std::vector<Leaving>& leaving);

  Router& router_;
  const std::chrono::milliseconds command_timeout_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<Ticket, Entry> entries_;
  std::vector<Leaving> leaving_;
  Ticket next_ticket_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

// Keeps one waiter in the heartbeat for as long as it waits.
class HeartbeatRegistration {
 public:
  HeartbeatRegistration(WaitHeartbeat& heartbeat, std::shared_ptr<const ServerQueue> queue, std::string field,
                        Waiter& waiter)
      : heartbeat_(heartbeat), ticket_(heartbeat.add(std::move(queue), std::move(field), &waiter)) {}
  ~HeartbeatRegistration() { heartbeat_.remove(ticket_); }
  HeartbeatRegistration(const HeartbeatRegistration&) = delete;
  HeartbeatRegistration& operator=(const HeartbeatRegistration&) = delete;

 private:
  WaitHeartbeat& heartbeat_;
  const WaitHeartbeat::Ticket ticket_;
};

}  // namespace dlock
