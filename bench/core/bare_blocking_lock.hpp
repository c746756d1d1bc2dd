// The hand-off reference: a blocking acquire over bare hiredis as a minimal
// pub/sub client does it, with no thread between the socket and the waiter.
// One connection stays subscribed to the lock's channel; the acquire script
// is retried on each release message, or when the holder's PTTL runs out.
#pragma once

#include <cstdint>
#include <string>

#include "bare_lock.hpp"
#include "server_link.hpp"

namespace dlock_bench {

class BareBlockingLock {
 public:
  BareBlockingLock(const dlock::ClientConfig& server, const std::string& name, int64_t lease_ms);

  // Waits as long as it takes; returns the fencing token.
  uint64_t acquire();
  void release() { lock_.release(); }

 private:
  // Consumes what the subscription received, waiting up to `timeout_ms` for
  // something to arrive (0: only what is there). A message means "retry".
  void take_messages(int timeout_ms);

  BareLock lock_;
  RedisConnection subscription_;
};

}  // namespace dlock_bench
