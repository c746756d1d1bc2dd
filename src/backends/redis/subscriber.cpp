#include "backends/redis/subscriber.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <string_view>
#include <system_error>
#include <utility>

#include "backends/redis/net/master_locator.hpp"
#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {
namespace {

// A channel no waiter used for this long is unsubscribed; until then a
// contended lock's waiters skip the subscribe round trip.
constexpr auto idle_channel_lifetime = std::chrono::seconds(10);
// The thread wakes at least this often to drop idle channels.
constexpr int housekeeping_interval_ms = 1000;
constexpr auto first_reconnect_delay = std::chrono::milliseconds(20);
constexpr auto longest_reconnect_delay = std::chrono::milliseconds(500);

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

// A message that names a turn (lua/lock/waiters.lua): its number, else 0.
uint64_t turn_number(std::string_view payload) {
  uint64_t number = 0;
  const auto [end, error] = std::from_chars(payload.data(), payload.data() + payload.size(), number);
  return error == std::errc() && end == payload.data() + payload.size() && number > 1 ? number : 0;
}

}  // namespace

Subscriber::Subscriber(ClientConfig config, ClientStats& stats, Router& router)
    : config_(std::move(config)), stats_(stats), router_(router) {}

Subscriber::~Subscriber() {
  stop();
}

void Subscriber::start_locked() {
  if (thread_.joinable()) return;
  wake_.emplace();
  thread_ = std::thread([this] { run(); });
}

void Subscriber::notify_thread() {
  wake_->signal();
}

Subscriber::Hearing Subscriber::hearing(const std::string& channel) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = channels_.find(channel);
  if (it == channels_.end() || !it->second.active) return std::nullopt;
  return events_;
}

void Subscriber::add(const std::string& channel, Waiter* waiter, Hearing since) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  start_locked();
  auto [it, inserted] = channels_.try_emplace(channel);
  it->second.waiters.push_back(waiter);
  if (inserted) {
    requests_.push_back({true, channel, {}});
    notify_thread();
  } else if (it->second.active && missed_since(it->second, *waiter, since)) {
    waiter->signal();
  }
}

bool Subscriber::missed_since(const Channel& channel, const Waiter& waiter, Hearing since) {
  if (!since) return true;
  if (waiter.every_message || !waiter.wakes_all.empty()) return channel.last_heard > *since;
  // Another owner's turn (its own release's, say, for an owner that asks
  // again at once) holds the lock back for that owner: nothing missed.
  return channel.last_open > *since || (channel.last_turn_heard > *since && channel.last_turn == waiter.turn_number);
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
    wake_.reset();
  }
}

void Subscriber::connection_failed(const std::string& node, const std::string& what) {
  links_.erase(node);
  reconnect_at_ = Clock::now() + reconnect_delay_;
  reconnect_delay_ = std::min(reconnect_delay_ * 2, longest_reconnect_delay);
  router_.suspect_map();  // a Cluster node that failed: its slots may have moved
  {
    // Its channels are asked for again, on whichever node serves them then;
    // the confirmations wake their waiters, which retry in case a release
    // happened meanwhile.
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = channels_.begin(); it != channels_.end();) {
      if (it->second.node != node) {
        ++it;
      } else if (it->second.waiters.empty()) {
        it = channels_.erase(it);
      } else {
        it->second.active = false;
        it->second.node.clear();
        requests_.push_back({true, it->first, {}});
        ++it;
      }
    }
  }
  if (in_outage_) return;
  in_outage_ = true;
  outage_since_ = Clock::now();
  if (log::enabled(DLOCK_LOG_WARN)) {
    log::emit(DLOCK_LOG_WARN, "subscriber: lost the connection to " +
                                  (node.empty() ? config_.describe() : node) + ": " + what +
                                  "; reconnecting (waiters retry their locks once it is back)");
  }
}

Connection& Subscriber::link(const Router::Node& node) {
  if (const auto it = links_.find(node.address); it != links_.end()) return *it->second;
  std::unique_ptr<Connection>& connection = links_[node.address] =
      open_connection(node.config, Clock::now() + std::chrono::milliseconds(config_.command_timeout_ms));
  if (in_outage_) {
    in_outage_ = false;
    ClientStats::count(stats_.reconnects);
    if (log::enabled(DLOCK_LOG_INFO)) {
      const auto down = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - outage_since_);
      log::emit(DLOCK_LOG_INFO, "subscriber: reconnected to " +
                                    (node.address.empty() ? config_.describe() : node.address) + " after " +
                                    std::to_string(down.count()) + " ms");
    }
  }
  return *connection;
}

void Subscriber::send_requests() {
  std::vector<Request> requests;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    requests.swap(requests_);
  }
  std::vector<std::string> written;  // the nodes whose connections have requests to send
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const Request& request = requests[i];
    std::string node = request.node;
    try {
      if (request.subscribe) {
        const Router::Node target = router_.node_for(
            request.channel, Clock::now() + std::chrono::milliseconds(config_.command_timeout_ms));
        node = target.address;
        link(target).append({router_.sharded_pubsub() ? "SSUBSCRIBE" : "SUBSCRIBE", request.channel});
        std::lock_guard<std::mutex> lock(mutex_);
        if (const auto it = channels_.find(request.channel); it != channels_.end()) it->second.node = node;
      } else {
        const auto it = links_.find(node);
        if (it == links_.end()) continue;  // that connection is gone, and the subscription with it
        it->second->append({router_.sharded_pubsub() ? "SUNSUBSCRIBE" : "UNSUBSCRIBE", request.channel});
      }
    } catch (const Error& error) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        requests_.insert(requests_.end(), requests.begin() + static_cast<std::ptrdiff_t>(i + 1),
                         requests.end());
        if (request.subscribe) requests_.push_back({true, request.channel, {}});
      }
      connection_failed(node, error.what());
      break;
    }
    if (std::find(written.begin(), written.end(), node) == written.end()) written.push_back(node);
  }
  for (const std::string& node : written) {
    const auto it = links_.find(node);
    if (it == links_.end()) continue;
    try {
      it->second->flush();
    } catch (const Error& error) {
      connection_failed(node, error.what());
    }
  }
}

void Subscriber::handle(const ReplyView& reply, const std::string& node) {
  if (reply.is_error()) {
    subscription_refused(reply, node);
    return;
  }
  // A push is {kind, channel, payload}.
  if (reply.array_size("subscriber push") < 3) return;
  const std::string_view kind = reply.element(0).text("subscriber push kind");
  const std::string channel(reply.element(1).text("subscriber push channel"));
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = channels_.find(channel);
  if (it == channels_.end()) return;
  if (kind == "subscribe" || kind == "ssubscribe") {
    reconnect_delay_ = first_reconnect_delay;
    it->second.active = true;
    it->second.last_heard = it->second.last_open = ++events_;
    for (Waiter* waiter : it->second.waiters) waiter->signal();
  } else if (kind == "message" || kind == "smessage") {
    it->second.last_heard = ++events_;
    release_message(it->second, reply.element(2).text("subscriber push payload"), events_);
  } else if (kind == "sunsubscribe" && it->second.node == node) {
    // Not asked for: the channel's slot moved to another node.
    if (it->second.waiters.empty()) {
      channels_.erase(it);
      return;
    }
    router_.suspect_map();
    it->second.active = false;
    it->second.node.clear();
    requests_.push_back({true, channel, {}});
    // A release may have gone unheard while the slot moved: they retry.
    for (Waiter* waiter : it->second.waiters) waiter->signal();
  }
}

void Subscriber::release_message(Channel& channel, std::string_view payload, uint64_t heard) {
  const bool after_turn = std::exchange(channel.turn_named, false);
  // Waiters woken by every message, or by this one (a read-write lock's "1").
  bool broadcast = false;
  for (Waiter* waiter : channel.waiters) {
    if (!waiter->every_message && (waiter->wakes_all.empty() || waiter->wakes_all != payload)) continue;
    waiter->signal(true);
    broadcast = true;
  }
  if (const uint64_t turn = turn_number(payload)) {
    // The named waiter alone: the lock is held back for it.
    channel.turn_named = true;
    channel.last_turn_heard = heard;
    channel.last_turn = turn;
    for (Waiter* waiter : channel.waiters) {
      if (waiter->turn_number == turn) waiter->signal(true);
    }
    return;
  }
  // The "0" of a release that named a turn: another waiter would be refused.
  if (after_turn) return;
  channel.last_open = heard;
  if (!broadcast) signal_first_unsignalled(channel.waiters);
}

void Subscriber::subscription_refused(const ReplyView& reply, const std::string& node) {
  try {
    reply.throw_if_error("subscribe on " + node);
  } catch (const TransientServerError& error) {
    // MOVED: the node no longer serves a slot we asked it for (a map not up
    // to date yet); TRYAGAIN: the slot is moving. The subscriptions it has not
    // confirmed are asked for again, after a short back-off, where the map
    // then says.
    if (const auto* redirect = dynamic_cast<const RedirectError*>(&error)) router_.moved(*redirect);
    router_.suspect_map();
    reconnect_at_ = Clock::now() + reconnect_delay_;
    reconnect_delay_ = std::min(reconnect_delay_ * 2, longest_reconnect_delay);
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = channels_.begin(); it != channels_.end();) {
      Channel& state = it->second;
      if (state.node != node || state.active) {
        ++it;
      } else if (state.waiters.empty()) {
        it = channels_.erase(it);
      } else {
        state.node.clear();
        requests_.push_back({true, it->first, {}});
        ++it;
      }
    }
  } catch (const Error&) {
    // A channel the server refused (an ACL): its waiters wait out the holder's lease.
  }
}

void Subscriber::drop_idle_channels(Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = channels_.begin(); it != channels_.end();) {
    Channel& channel = it->second;
    if (channel.waiters.empty() && channel.active && now - channel.idle_since > idle_channel_lifetime) {
      requests_.push_back({false, it->first, channel.node});
      it = channels_.erase(it);
    } else {
      ++it;
    }
  }
}

void Subscriber::read_from(const std::string& node) {
  const auto it = links_.find(node);
  if (it == links_.end()) return;
  try {
    it->second->read_socket();
    while (Reply reply = it->second->next_buffered_reply()) {
      handle(reply, node);
    }
  } catch (const Error& error) {
    connection_failed(node, error.what());
  }
}

void Subscriber::run() {
  reconnect_delay_ = first_reconnect_delay;
  reconnect_at_ = Clock::now();
  for (;;) {
    bool waiting_requests;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) break;
      if (std::exchange(reconnect_requested_, false)) {
        // New connections have no subscriptions: every channel a waiter
        // still needs is asked for again.
        links_.clear();
        reconnect_at_ = Clock::now();
        requests_.clear();
        for (auto it = channels_.begin(); it != channels_.end();) {
          if (it->second.waiters.empty()) {
            it = channels_.erase(it);
            continue;
          }
          it->second.active = false;
          it->second.node.clear();
          requests_.push_back({true, it->first, {}});
          ++it;
        }
      }
      waiting_requests = !requests_.empty();
    }
    int timeout_ms = housekeeping_interval_ms;
    if (waiting_requests && Clock::now() >= reconnect_at_) {
      send_requests();
    } else if (waiting_requests) {
      const auto until_retry =
          std::chrono::duration_cast<std::chrono::milliseconds>(reconnect_at_ - Clock::now());
      timeout_ms = static_cast<int>(std::clamp<int64_t>(until_retry.count(), 0, housekeeping_interval_ms));
    }

    std::vector<pollfd> fds{{wake_->fd(), POLLIN, 0}};
    std::vector<std::string> nodes;
    for (const auto& [node, connection] : links_) {
      fds.push_back({connection->fd(), POLLIN, 0});
      nodes.push_back(node);
    }
    if (poll(fds.data(), fds.size(), timeout_ms) < 0) {
      if (errno != EINTR) {
        // Not expected of valid descriptors; new connections are the way out.
        std::lock_guard<std::mutex> lock(mutex_);
        reconnect_requested_ = true;
      }
      continue;
    }
    if (fds[0].revents & POLLIN) wake_->drain();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (fds[i + 1].revents & (POLLIN | POLLHUP | POLLERR)) read_from(nodes[i]);
    }
    drop_idle_channels(Clock::now());
  }
  links_.clear();
}

}  // namespace dlock
