// What wakes a lease-mode waiter when the holder releases (docs/design/backends.md
// 3.5): PostgreSQL's LISTEN/NOTIFY (pg_listener). Without one (MySQL), the
// waiter backs off (lease_backoff). A lease that runs out notifies nobody, so
// a waiter never waits past the holder's lease end either way.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "backends/sql/sql_connection.hpp"

namespace dlock {
namespace sql {

// One waiter's watch on one name's releases.
class LeaseWatch {
 public:
  virtual ~LeaseWatch() = default;
  // Waits until a release of the name was announced since the watch began
  // (or since the last wait that returned true), or `until`. Returns whether woken.
  virtual bool wait(std::chrono::steady_clock::time_point until) = 0;
};

class LeaseWakeups {
 public:
  virtual ~LeaseWakeups() = default;
  // Starts watching the releases of `name`'s rows on `table` (the lock
  // table, or the semaphore's leases); a release after this returns is seen.
  // `connection` may serve a lookup. `on_news`, unless empty, is called on
  // each announcement too, until the watch is destroyed (under the source's
  // lock: it only signals, as the core's Waiter::signal does). Throws
  // ConnectionError.
  virtual std::unique_ptr<LeaseWatch> watch(SqlConnection& connection, const std::string& table,
                                            const std::string& name, std::function<void()> on_news) = 0;
};

}  // namespace sql
}  // namespace dlock
