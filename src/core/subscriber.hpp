// The client's one subscriber connection, multiplexing every wake-up channel
// its waiters need, on one background thread.
//
// A waiter registers on its lock's channel before the retry that follows a
// failed attempt. It is signalled when the subscription becomes active (so a
// release between the failed attempt and the subscription is never missed),
// once per release message (one waiter per message, first come first served;
// a message "1", Redisson's read-write unlock, wakes them all),
// and after a reconnect, when messages may have been missed.
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/stats.hpp"
#include "core/waiter.hpp"
#include "redis/connection.hpp"
#include "redis/url.hpp"

namespace dlock {

class Subscriber {
 public:
  Subscriber(ClientConfig config, ClientStats& stats);
  ~Subscriber();
  Subscriber(const Subscriber&) = delete;
  Subscriber& operator=(const Subscriber&) = delete;

  void add(const std::string& channel, Waiter* waiter);
  void remove(const std::string& channel, Waiter* waiter);

  // Drops the connection and makes a new one at once (the master moved):
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
  };
  struct Request {
    bool subscribe;
    std::string channel;
  };

  void run();
  void connect();
  // The connection broke or could not be made: logged once per outage.
  void connection_failed(const std::string& what);
  void send_requests();
  void handle(const ReplyView& reply);
  void drop_idle_channels(Clock::time_point now);
  void notify_thread();
  void start_locked();

  const ClientConfig config_;
  ClientStats& stats_;
  std::mutex mutex_;
  std::map<std::string, Channel> channels_;
  std::vector<Request> requests_;
  bool stopping_ = false;
  bool reconnect_requested_ = false;
  int wake_pipe_[2] = {-1, -1};
  std::thread thread_;
  std::unique_ptr<Connection> connection_;  // used by the thread only
  Clock::time_point outage_since_;          // thread only; set while down
  bool in_outage_ = false;                  // thread only
  // Thread only: how long to wait before the next connection attempt, and
  // from when. The delay doubles with each failure and resets only once the
  // server confirmed a subscription: a server that accepts the connection and
  // then drops it (maxclients) is not hammered.
  std::chrono::milliseconds reconnect_delay_;
  Clock::time_point reconnect_at_;
};

}  // namespace dlock
