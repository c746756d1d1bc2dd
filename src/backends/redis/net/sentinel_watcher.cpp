#include "backends/redis/net/sentinel_watcher.hpp"

#include <poll.h>

#include <cerrno>
#include <sstream>
#include <system_error>

#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {
namespace {

constexpr auto between_sentinels = std::chrono::milliseconds(100);
constexpr const char* switch_master = "+switch-master";
// Published once the chosen replica has become a master, before the other
// replicas are moved to it and seconds before +switch-master.
constexpr const char* reconfiguring_replicas = "+failover-state-reconf-slaves";

}  // namespace

SentinelWatcher::SentinelWatcher(std::shared_ptr<MasterLocator> locator, int64_t command_timeout_ms)
    : locator_(std::move(locator)), command_timeout_(command_timeout_ms) {
  thread_ = std::thread([this] { run(); });
}

SentinelWatcher::~SentinelWatcher() {
  stop();
}

void SentinelWatcher::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.signal();
  if (thread_.joinable()) thread_.join();
}

bool SentinelWatcher::pause(std::chrono::milliseconds delay) {
  pollfd wake{wake_.fd(), POLLIN, 0};
  poll(&wake, 1, static_cast<int>(delay.count()));
  std::lock_guard<std::mutex> lock(mutex_);
  return !stopping_;
}

void SentinelWatcher::run() {
  for (std::size_t index = 0;; index = (index + 1) % locator_->sentinel_count()) {
    watch(index);
    if (!pause(between_sentinels)) return;
  }
}

void SentinelWatcher::watch(std::size_t index) {
  try {
    const std::unique_ptr<Connection> sentinel =
        locator_->connect_sentinel(index, std::chrono::steady_clock::now() + command_timeout_);
    // Subscribed first, then asked: a switch between the two is not missed.
    sentinel->command({"SUBSCRIBE", switch_master, reconfiguring_replicas})
        .throw_if_error("SUBSCRIBE " + std::string(switch_master));
    ask_where_the_master_is(index, "named by sentinel " + locator_->sentinel_address(index));
    for (;;) {
      pollfd fds[2] = {{wake_.fd(), POLLIN, 0}, {sentinel->fd(), POLLIN, 0}};
      if (poll(fds, 2, -1) < 0 && errno != EINTR) return;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_) return;
      }
      if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
        sentinel->read_socket();
        while (Reply reply = sentinel->next_buffered_reply()) handle(reply, index);
      }
    }
  } catch (const Error& error) {
    if (log::enabled(DLOCK_LOG_DEBUG)) {
      log::emit(DLOCK_LOG_DEBUG,
                "sentinel watcher: " + std::string(error.what()) + "; trying the next sentinel");
    }
  }
}

void SentinelWatcher::ask_where_the_master_is(std::size_t index, const std::string& how) {
  const std::unique_ptr<Connection> asking =
      locator_->connect_sentinel(index, std::chrono::steady_clock::now() + command_timeout_);
  std::string host;
  int port = 0;
  if (locator_->ask(*asking, host, port)) locator_->reported(host, port, how);
}

void SentinelWatcher::handle(const ReplyView& reply, std::size_t index) {
  if (!reply.is_array() || reply.array_size("sentinel push") < 3) return;
  if (reply.element(0).text("sentinel push kind") != "message") return;
  const std::string_view channel = reply.element(1).text("sentinel push channel");
  std::istringstream fields{std::string(reply.element(2).text("sentinel push payload"))};
  if (channel == switch_master) {
    // "<name> <old-ip> <old-port> <new-ip> <new-port>"
    std::string name, old_host, old_port, new_host;
    int new_port = 0;
    if (!(fields >> name >> old_host >> old_port >> new_host >> new_port)) return;
    if (name == locator_->master_name()) locator_->reported(new_host, new_port, switch_master);
  } else if (channel == reconfiguring_replicas) {
    // "master <name> <ip> <port>": the chosen replica is a master now and
    // the sentinels name it, though +switch-master waits until the other
    // replicas follow it. Writes the old master takes meanwhile are lost.
    std::string kind, name;
    if (!(fields >> kind >> name) || name != locator_->master_name()) return;
    ask_where_the_master_is(index, "promoted by sentinel " + locator_->sentinel_address(index));
  }
}

}  // namespace dlock
