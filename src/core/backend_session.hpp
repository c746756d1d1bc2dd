// What one client core keeps open on its backend for its life (docs/design/
// backends.md, 1.5 step 6): connections, the threads that listen, the keeper
// the watchdog renews through. The client's backend builds one for each core,
// so a fork()ed child builds its own.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/hold_keeper.hpp"
#include "core/holds.hpp"

namespace dlock {

class BackendSession {
 public:
  virtual ~BackendSession() = default;

  // The URL scheme that names the backend ("redis"), for messages.
  virtual const char* scheme() const = 0;
  // Where the server is, for messages: never includes a password.
  virtual const std::string& describe() const = 0;
  virtual HoldKeeper& keeper() = 0;
  // The lease of a watchdog hold, given the one configured: a backend whose
  // holds last as long as something of its own (a ZooKeeper session) says so.
  virtual int64_t watchdog_lease_ms(int64_t configured) const { return configured; }

  // Starts what runs on its own (watchers); `check_holds_now` is called when
  // the server came back or moved, so every hold is checked at once.
  virtual void start(std::function<void()> check_holds_now) = 0;
  // Checks the server answers (and accepts the credentials); until it has, a
  // refused connection is reported at once instead of retried.
  virtual void ping() = 0;
  // Lets `hold` go under `request_id`, its latch kept `latch_ms`: once before
  // `once_before`, or with the client's retries (nullopt). Throws Error when
  // it did not go through.
  virtual void release(const Hold& hold, const std::string& request_id, int64_t latch_ms,
                       std::optional<Clock::time_point> once_before) = 0;
  // Connections the backend had to make again.
  virtual uint64_t reconnects() const = 0;

  // Closing begins: whatever waits on the server's news is woken (it finds
  // the client closed) and watchers stop.
  virtual void begin_close() = 0;
  // After the holds were let go: stops the threads and closes the connections.
  virtual void close() = 0;
};

}  // namespace dlock
