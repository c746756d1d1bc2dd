#include "backends/sql/pg_listener.hpp"

#include <poll.h>

#include "backends/sql/pg_lease_dialect.hpp"
#include "common/error.hpp"

namespace dlock {
namespace sql {
namespace {

constexpr int kReconnectPauseMs = 100;

}  // namespace

class PgListener::ChannelWatch : public LeaseWatch {
 public:
  ChannelWatch(PgListener& listener, std::string channel, std::uint64_t serial, std::uint64_t seen)
      : listener_(listener), channel_(std::move(channel)), serial_(serial), seen_(seen) {}
  ~ChannelWatch() override { listener_.unwatch(channel_, serial_); }

  bool wait(std::chrono::steady_clock::time_point until) override {
    std::unique_lock<std::mutex> lock(listener_.mutex_);
    const Channel& channel = listener_.channels_.at(channel_);
    const bool woken = listener_.announced_.wait_until(
        lock, until, [&] { return channel.announcements != seen_ || listener_.stopping_; });
    seen_ = channel.announcements;
    return woken;
  }

 private:
  PgListener& listener_;
  std::string channel_;
  std::uint64_t serial_;
  std::uint64_t seen_;
};

PgListener::PgListener(const SqlUrl& url) : connection_(connect_postgresql(url)) {
  thread_ = std::thread([this] { run(); });
}

PgListener::~PgListener() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.signal();
  announced_.notify_all();
  thread_.join();
}

std::uint64_t PgListener::session_id() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return connection_->session_id();
}

std::string PgListener::quoted(const std::string& channel) {
  return "\"" + channel + "\"";  // "dlock_" and hex digits: nothing to escape
}

std::unique_ptr<LeaseWatch> PgListener::watch(SqlConnection& connection, const std::string& table,
                                              const std::string& name, std::function<void()> on_news) {
  const SqlResult found =
      connection.execute("SELECT " + pg_release_channel(table, "$1"), {SqlParam::bytes(name)});
  const std::string channel = found.rows.at(0).at(0).value_or("");
  std::lock_guard<std::mutex> lock(mutex_);
  if (connection_->socket() < 0) reconnect();
  Channel& entry = channels_[channel];
  if (entry.watchers == 0) {
    try {
      connection_->execute("LISTEN " + quoted(channel));
    } catch (const Error&) {
      channels_.erase(channel);
      throw;
    }
    wake_.signal();  // notifications that came with LISTEN's answer wait in libpq's queue
  }
  ++entry.watchers;
  const std::uint64_t serial = ++next_serial_;
  if (on_news) entry.on_news.emplace(serial, std::move(on_news));
  return std::make_unique<ChannelWatch>(*this, channel, serial, entry.announcements);
}

void PgListener::unwatch(const std::string& channel, std::uint64_t serial) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto entry = channels_.find(channel);
  if (entry == channels_.end()) return;
  entry->second.on_news.erase(serial);
  if (--entry->second.watchers > 0) return;
  channels_.erase(entry);
  try {
    if (connection_->socket() >= 0) connection_->execute("UNLISTEN " + quoted(channel));
  } catch (const Error&) {
    // A broken connection listens to nothing; the reconnect listens to the channels left.
  }
}

void PgListener::run() {
  for (;;) {
    int fd;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      fd = connection_->socket();
    }
    pollfd fds[2] = {{wake_.fd(), POLLIN, 0}, {fd, POLLIN, 0}};
    poll(fds, fd >= 0 ? 2 : 1, fd >= 0 ? -1 : kReconnectPauseMs);
    wake_.drain();
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    if (fd < 0) {
      reconnect();
    } else {
      deliver();
    }
  }
}

// Under mutex_.
void PgListener::deliver() {
  try {
    for (const std::string& channel : connection_->take_notifications()) {
      const auto entry = channels_.find(channel);
      if (entry != channels_.end()) announce(entry->second);
    }
  } catch (const ConnectionError&) {
    // Closed: run() reconnects; until then every waiter checks for itself.
    for (auto& entry : channels_) announce(entry.second);
  }
  announced_.notify_all();
}

// Under mutex_. Quietly leaves the connection closed when the server is still away.
void PgListener::reconnect() {
  try {
    connection_->execute("SELECT 1");
    for (const auto& entry : channels_) connection_->execute("LISTEN " + quoted(entry.first));
  } catch (const Error&) {
    return;
  }
  for (auto& entry : channels_) announce(entry.second);
  announced_.notify_all();
}

void PgListener::announce(Channel& channel) {
  ++channel.announcements;
  for (const auto& watcher : channel.on_news) watcher.second();
}

}  // namespace sql
}  // namespace dlock
