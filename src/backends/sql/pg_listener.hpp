// One client's LISTEN connection on PostgreSQL (docs/design/backends.md 3.5):
// a thread polls it and wakes the waiters of each channel notified. A lock
// name's channel is "dlock_" + md5(table NUL name) (pg_lease_dialect's
// release sends it). The first watch of a channel sends LISTEN and returns
// once it completed; the last one gone sends UNLISTEN. A notification wakes
// every local waiter of its channel (they race for the row; the losers wait
// again). When the connection breaks, the thread reconnects, listens again
// and wakes every waiter, since a release may have been missed meanwhile.
#pragma once

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "backends/sql/lease_wakeups.hpp"
#include "backends/sql/pg_connection.hpp"
#include "common/wake_fd.hpp"

namespace dlock {
namespace sql {

class PgListener : public LeaseWakeups {
 public:
  // Opens the listening connection (throws ConnectionError, AuthError) and starts the thread.
  PgListener(const SqlUrl& url);
  ~PgListener() override;  // stops the thread, closes the connection
  PgListener(const PgListener&) = delete;
  PgListener& operator=(const PgListener&) = delete;

  std::unique_ptr<LeaseWatch> watch(SqlConnection& connection, const std::string& table,
                                    const std::string& name, std::function<void()> on_news) override;

  // The listening connection's session (for tests that end it).
  std::uint64_t session_id() const;

 private:
  class ChannelWatch;
  struct Channel {
    int watchers = 0;
    std::uint64_t announcements = 0;                         // releases seen (and reconnects)
    std::map<std::uint64_t, std::function<void()>> on_news;  // by watch serial
  };

  void run();
  void deliver();
  void reconnect();
  void unwatch(const std::string& channel, std::uint64_t serial);
  // Under mutex_: counts an announcement on `channel` and tells its watchers.
  static void announce(Channel& channel);
  static std::string quoted(const std::string& channel);

  std::unique_ptr<PgNotifyingConnection> connection_;  // used under mutex_ only
  mutable std::mutex mutex_;
  std::condition_variable announced_;
  std::map<std::string, Channel> channels_;
  std::uint64_t next_serial_ = 0;
  bool stopping_ = false;
  WakeFd wake_;
  std::thread thread_;
};

}  // namespace sql
}  // namespace dlock
