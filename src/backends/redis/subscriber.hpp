// The client's subscriber: one connection per node (one in all outside a
// Cluster), multiplexing every wake-up channel its waiters need, on one
// background thread. In a Cluster with sharded pub/sub (Redis/Valkey >= 7) a
// channel is subscribed with SSUBSCRIBE on the master of its slot, where the
// releases' SPUBLISH goes; a slot that moves away ends the subscription
// (an unsolicited sunsubscribe), and it is made again on the new owner.
//
// A waiter registers on its lock's channel before the retry that follows a
// failed attempt. It is signalled when the subscription becomes active, or at
// once when the channel heard something since the attempt began (so a release
// between the failed attempt and the registration is never missed; a waiter
// whose attempt began with the channel listening, and that heard nothing
// since, is not made to try again for nothing),
// once per release message (one waiter per message, first come first served;
// a waiter may ask to be woken by every message, or by every message with a
// given payload (Waiter::every_message, Waiter::wakes_all: the read-write
// lock's "1"); a message that names a turn, lua/lock/waiters.lua, wakes the
// waiter it names and makes the release's "0" that follows wake nobody),
// and after a reconnect, when messages may have been missed.
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "backends/redis/net/connection.hpp"
#include "backends/redis/net/router.hpp"
#include "backends/redis/net/url.hpp"
#include "common/wake_fd.hpp"
#include "core/stats.hpp"
#include "core/waiter.hpp"

namespace dlock {

class Subscriber {
 public:
  Subscriber(ClientConfig config, ClientStats& stats, Router& router);
  ~Subscriber();
  Subscriber(const Subscriber&) = delete;
  Subscriber& operator=(const Subscriber&) = delete;

  // Where `channel` stands, taken just before an attempt: nothing when it is
  // not listening yet, else a mark that add() compares with what it heard.
  using Hearing = std::optional<uint64_t>;
  Hearing hearing(const std::string& channel);
  // `since`: the hearing taken before the attempt the waiter failed.
  void add(const std::string& channel, Waiter* waiter, Hearing since = std::nullopt);
  void remove(const std::string& channel, Waiter* waiter);

  // Drops the connections and makes new ones at once (the master moved):
  // every channel is subscribed again and its waiters retry.
  void reconnect();

  // Pokes every registered waiter (the client is closing).
  void poke_all();
  void stop();

 private:
  using Clock = std::chrono::steady_clock;

  struct Channel {
    std::deque<Waiter*> waiters;
    bool active = false;           // the server confirmed the subscription
    Clock::time_point idle_since;  // when the last waiter left
    std::string node;              // the connection it was asked on (node address; "" outside a Cluster)
    bool turn_named = false;       // the last message named a turn: the next "0" is Redisson's waiters'
    // events_ when it last heard: a confirmation or any message; a
    // confirmation or a message that may be any waiter's chance (not a turn
    // named, not the "0" after one); the last turn named, and its number.
    uint64_t last_heard = 0;
    uint64_t last_open = 0;
    uint64_t last_turn_heard = 0;
    uint64_t last_turn = 0;
  };
  struct Request {
    bool subscribe;
    std::string channel;
    std::string node;  // unsubscribe: the connection the channel is on
  };

  void run();
  // The connection to `node` (by address), made on first use.
  Connection& link(const Router::Node& node);
  // A connection broke or could not be made: its channels are asked for
  // again (after a back-off); logged once per outage.
  void connection_failed(const std::string& node, const std::string& what);
  // Sends what add() and the idle-channel sweep asked for: a subscription on
  // the node that serves its channel, by the command the servers use.
  void send_requests();
  void handle(const ReplyView& reply, const std::string& node);
  // A message on `channel` (mutex_ held): wakes the waiters it is news for.
  void release_message(Channel& channel, std::string_view payload, uint64_t heard);
  // Whether `channel` heard, since `since`, what `waiter` registering now
  // would have been woken by.
  static bool missed_since(const Channel& channel, const Waiter& waiter, Hearing since);
  // An error reply: a subscription refused (MOVED, an ACL).
  void subscription_refused(const ReplyView& reply, const std::string& node);
  void drop_idle_channels(Clock::time_point now);
  // Reads what the connection to `node` received and handles each push.
  void read_from(const std::string& node);
  void notify_thread();
  void start_locked();

  const ClientConfig config_;
  ClientStats& stats_;
  Router& router_;
  std::mutex mutex_;
  std::map<std::string, Channel> channels_;
  uint64_t events_ = 0;  // confirmations and messages heard, on every channel
  std::vector<Request> requests_;
  bool stopping_ = false;
  bool reconnect_requested_ = false;
  std::optional<WakeFd> wake_;  // made with the thread
  std::thread thread_;
  std::map<std::string, std::unique_ptr<Connection>> links_;  // by node address; thread only
  Clock::time_point outage_since_;                            // thread only; set while down
  bool in_outage_ = false;                                    // thread only
  // Thread only: how long to wait before the next connection attempt, and
  // from when. The delay doubles with each failure and resets only once the
  // server confirmed a subscription: a server that accepts the connection and
  // then drops it (maxclients) is not hammered.
  std::chrono::milliseconds reconnect_delay_;
  Clock::time_point reconnect_at_;
};

}  // namespace dlock
