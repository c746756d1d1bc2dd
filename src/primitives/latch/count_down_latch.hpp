// A count-down latch in Redisson's RCountDownLatch layout: the key <name>
// holds the count as a string and is deleted at zero, and the channel
// redisson_countdownlatch__channel__{<name>} carries 1 when a count is set
// and 0 when it reaches zero. dlock adds the marker {<name>}:dlock_opened,
// left for a while by the count down that opened the latch, so that a waiter
// tells a latch counted down from one whose key vanished (lost).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/cancel.hpp"
#include "core/client_core.hpp"
#include "core/wait_process.hpp"

namespace dlock {

struct LatchKeys {
  // Throws InvalidArgument for a bad name (core/key_names.hpp).
  explicit LatchKeys(std::string name);

  std::string name;     // the count
  std::string channel;  // redisson_countdownlatch__channel__{name} (always braced, as Redisson names it)
  std::string latch;    // prefix of the callers' request records
  std::string opened;   // {name}:dlock_opened, set when a count down opens the latch
};

class CountDownLatch {
 public:
  CountDownLatch(ClientCore& core, std::shared_ptr<const LatchKeys> keys)
      : core_(core), keys_(std::move(keys)) {}

  // Sets the count when the latch does not exist; false when it did.
  bool try_set_count(int64_t count);
  // Returns the count after this call. After a ConnectionError the
  // count-down is finished in the background (core/pending_requests.hpp); the
  // owner's next count_down is its retry and counts nothing more.
  int64_t count_down(uint64_t owner);
  int64_t count();
  // Waits until the count is zero, as wait_ms says (0 one look, -1 forever).
  // Returns false when the wait ran out. Throws LostError when a count above
  // zero it saw vanished without a count down to zero (no "zero" message, no
  // marker): the latch's key was lost, e.g. by a restart without
  // persistence. Throws InterruptedError, ClosedError, ConnectionError,
  // ProtocolError.
  bool await(int64_t wait_ms, Cancel* cancel) { return await_wait(wait_ms, cancel)->run(); }
  // The same await as a wait for a driver to run (core/wait_process.hpp).
  std::shared_ptr<WaitProcess> await_wait(int64_t wait_ms, Cancel* cancel);

 private:
  friend class LatchAwait;
  // What became of a count this waiter saw, now read as zero.
  enum class Gone { opened, set_again, lost };
  Gone why_gone();

  ClientCore& core_;
  std::shared_ptr<const LatchKeys> keys_;
};

}  // namespace dlock
