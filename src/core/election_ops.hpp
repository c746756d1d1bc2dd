// What an election needs from its backend (docs/design/backends.md 1.3): the
// leadership, a lock whose grant's token is the term and whose grant records
// the candidate's value as the leader's; publishing a new value for a term;
// reading who leads; and following the leaders as they change. The flows
// (campaign, resign, the term without a round trip) are primitives/election's
// and the C API's, the same on every backend.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/holds.hpp"
#include "core/lock_ops.hpp"

namespace dlock {

struct Leader {
  uint64_t term = 0;
  int64_t since_ms = 0;  // Unix time, by the server's clock
  std::string value;
};

// The value a candidate's next grant publishes: set by its campaign, read by
// the grant, which may run on another thread (the async runner's).
class CandidateValue {
 public:
  void set(std::string value) {
    std::lock_guard<std::mutex> lock(mutex_);
    text_ = std::move(value);
  }
  std::string get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return text_;
  }

 private:
  mutable std::mutex mutex_;
  std::string text_;
};

// Calls back with an election's leaders on a thread of its own from the
// moment it starts: first the one leading then, then each new leader or new
// value, in order, never with a term lower than one already delivered.
// Destroying it stops the thread, waiting for a callback under way to return.
class LeaderFollower {
 public:
  virtual ~LeaderFollower() = default;
};

class ElectionOps {
 public:
  using LeaderFn = std::function<void(const Leader&)>;

  virtual ~ElectionOps() = default;
  // The election's name, as the user gave it.
  virtual const std::string& name() const = 0;
  // The lock a campaign acquires and a resignation releases.
  virtual std::shared_ptr<LockOps> leadership() const = 0;
  // The value the candidate's next grant publishes.
  virtual void set_value(std::string value) = 0;
  // Publishes `value` for the term of `hold` (a hold of leadership()):
  // false when that hold no longer leads.
  virtual bool proclaim(const Hold& hold, const std::string& value) = 0;
  // Who leads now; nullopt when nobody does.
  virtual std::optional<Leader> leader() = 0;
  // Starts following the leaders (see LeaderFollower).
  virtual std::unique_ptr<LeaderFollower> follow(LeaderFn fn) = 0;
};

}  // namespace dlock
