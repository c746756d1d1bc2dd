#include "core/subscriber.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <system_error>
#include <utility>

#include "common/error.hpp"
#include "common/log.hpp"
#include "redis/master_locator.hpp"

namespace dlock {
namespace {

// A channel no waiter used for this long is unsubscribed; until then a
// contended lock's waiters skip the subscribe round trip.
constexpr auto idle_channel_lifetime = std::chrono::seconds(10);
// The thread wakes at least this often to drop idle channels.
constexpr int housekeeping_interval_ms = 1000;
constexpr auto first_reconnect_delay = std::chrono::milliseconds(20);
constexpr auto longest_reconnect_delay = std::chrono::milliseconds(500);

// Redisson's READ_UNLOCK_MESSAGE: a read-write lock was let go in a way that
// may admit several waiters (readers) at once, so it wakes every waiter.
constexpr std::string_view every_waiter_message = "1";

// A release message wakes one waiter (or is passed on to the next one).
void signal_first_unsignalled(std::deque<Waiter*>& waiters) {
  for (Waiter* waiter : waiters) {
    std::unique_lock<std::mutex> lock(waiter->mutex);
    if (!waiter->signalled) {
      lock.unlock();
      waiter->signal(true);
      return;
    }
  }
}

}  // namespace

Subscriber::Subscriber(ClientConfig config, ClientStats& stats) : config_(std::move(config)), stats_(stats) {}

Subscriber::~Subscriber() {
  stop();
}

void Subscriber::start_locked() {
  if (thread_.joinable()) return;
  if (pipe2(wake_pipe_, O_CLOEXEC | O_NONBLOCK) != 0) {
    throw std::system_error(errno, std::generic_category(), "subscriber wake-up pipe");
  }
  thread_ = std::thread([this] { run(); });
}

void Subscriber::notify_thread() {
  const char byte = 1;
  // A full pipe already holds a wake-up.
  [[maybe_unused]] ssize_t written = write(wake_pipe_[1], &byte, 1);
}

void Subscriber::add(const std::string& channel, Waiter* waiter) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  start_locked();
  auto [it, inserted] = channels_.try_emplace(channel);
  it->second.waiters.push_back(waiter);
  if (inserted) {
    requests_.push_back({true, channel});
    notify_thread();
  } else if (it->second.active) {
    waiter->signal();
  }
}

void Subscriber::remove(const std::string& channel, Waiter* waiter) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = channels_.find(channel);
  if (it == channels_.end()) return;
  std::deque<Waiter*>& waiters = it->second.waiters;
  waiters.erase(std::remove(waiters.begin(), waiters.end(), waiter), waiters.end());
  bool unused_wake_up;
  {
    std::lock_guard<std::mutex> waiter_lock(waiter->mutex);
    unused_wake_up = waiter->signalled;
  }
  if (unused_wake_up) {
    signal_first_unsignalled(waiters);  // the message it got is another waiter's chance
  }
  if (waiters.empty()) {
    it->second.idle_since = Clock::now();
  }
}

void Subscriber::reconnect() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_ || !thread_.joinable()) return;
  reconnect_requested_ = true;
  notify_thread();
}

void Subscriber::poke_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [name, channel] : channels_) {
    for (Waiter* waiter : channel.waiters) waiter->poke();
  }
}

void Subscriber::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    if (thread_.joinable()) notify_thread();
  }
  if (thread_.joinable()) {
    thread_.join();
    close(wake_pipe_[0]);
    close(wake_pipe_[1]);
  }
}

void Subscriber::connection_failed(const std::string& what) {
  connection_.reset();
  reconnect_at_ = Clock::now() + reconnect_delay_;
  reconnect_delay_ = std::min(reconnect_delay_ * 2, longest_reconnect_delay);
  if (in_outage_) return;
  in_outage_ = true;
  outage_since_ = Clock::now();
  if (log::enabled(DLOCK_LOG_WARN)) {
    log::emit(DLOCK_LOG_WARN, "subscriber: lost the connection to " + config_.describe() + ": " + what +
                                  "; reconnecting (waiters retry their locks once it is back)");
  }
}

void Subscriber::connect() {
  auto connection =
      open_connection(config_, Clock::now() + std::chrono::milliseconds(config_.command_timeout_ms));
  if (in_outage_) {
    in_outage_ = false;
    ClientStats::count(stats_.reconnects);
    if (log::enabled(DLOCK_LOG_INFO)) {
      const auto down = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - outage_since_);
      log::emit(DLOCK_LOG_INFO, "subscriber: reconnected to " + config_.describe() + " after " +
                                    std::to_string(down.count()) + " ms");
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  connection_ = std::move(connection);
  // A new connection has no subscriptions: ask again for every channel a
  // waiter still needs; their confirmations wake the waiters, which retry in
  // case a release happened while the connection was down.
  requests_.clear();
  for (auto it = channels_.begin(); it != channels_.end();) {
    if (it->second.waiters.empty()) {
      it = channels_.erase(it);
      continue;
    }
    it->second.active = false;
    requests_.push_back({true, it->first});
    ++it;
  }
}

void Subscriber::send_requests() {
  std::vector<Request> requests;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    requests.swap(requests_);
  }
  if (requests.empty()) return;
  for (const Request& request : requests) {
    connection_->append({request.subscribe ? "SUBSCRIBE" : "UNSUBSCRIBE", request.channel});
  }
  connection_->flush();
}

void Subscriber::handle(const ReplyView& reply) {
  // A channel the server refused (an ACL): its waiters wait out the holder's lease.
  if (reply.is_error()) return;
  // A push is {kind, channel, payload}.
  if (reply.array_size("subscriber push") < 3) return;
  const std::string_view kind = reply.element(0).text("subscriber push kind");
  const std::string channel(reply.element(1).text("subscriber push channel"));
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = channels_.find(channel);
  if (it == channels_.end()) return;
  if (kind == "subscribe") {
    reconnect_delay_ = first_reconnect_delay;
    it->second.active = true;
    for (Waiter* waiter : it->second.waiters) waiter->signal();
  } else if (kind == "message" && reply.element(2).text("subscriber push payload") == every_waiter_message) {
    for (Waiter* waiter : it->second.waiters) waiter->signal(true);
  } else if (kind == "message") {
    bool broadcast = false;
    for (Waiter* waiter : it->second.waiters) {
      if (!waiter->every_message) continue;
      waiter->signal(true);
      broadcast = true;
    }
    if (!broadcast) signal_first_unsignalled(it->second.waiters);
  }
}

void Subscriber::drop_idle_channels(Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = channels_.begin(); it != channels_.end();) {
    Channel& channel = it->second;
    if (channel.waiters.empty() && channel.active && now - channel.idle_since > idle_channel_lifetime) {
      requests_.push_back({false, it->first});
      it = channels_.erase(it);
    } else {
      ++it;
    }
  }
}

void Subscriber::run() {
  reconnect_delay_ = first_reconnect_delay;
  reconnect_at_ = Clock::now();
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) break;
      if (std::exchange(reconnect_requested_, false)) {
        connection_.reset();  // under the mutex: connect() takes it to install the new one
        reconnect_at_ = Clock::now();
      }
    }
    int timeout_ms = housekeeping_interval_ms;
    const Clock::time_point now = Clock::now();
    try {
      if (!connection_ && now >= reconnect_at_) connect();
      if (connection_) send_requests();
    } catch (const Error& error) {
      connection_failed(error.what());
    }
    if (!connection_) {
      const auto until_retry =
          std::chrono::duration_cast<std::chrono::milliseconds>(reconnect_at_ - Clock::now());
      timeout_ms = static_cast<int>(std::clamp<int64_t>(until_retry.count(), 0, housekeeping_interval_ms));
    }

    pollfd fds[2] = {{wake_pipe_[0], POLLIN, 0}, {connection_ ? connection_->fd() : -1, POLLIN, 0}};
    if (poll(fds, 2, timeout_ms) < 0 && errno != EINTR) {
      connection_failed(std::string("poll: ") + std::strerror(errno));
      continue;
    }
    if (fds[0].revents & POLLIN) {
      char drain[64];
      while (read(wake_pipe_[0], drain, sizeof drain) > 0) {
      }
    }
    if (connection_ && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      try {
        connection_->read_socket();
        while (Reply reply = connection_->next_buffered_reply()) {
          handle(reply);
        }
      } catch (const Error& error) {
        connection_failed(error.what());
      }
    }
    drop_idle_channels(Clock::now());
  }
  connection_.reset();
}

}  // namespace dlock
