// Calls to a RedLock's members, in parallel (one worker thread per member,
// member_worker.hpp), each bounded by a short patience: a member on a paused or slow server costs the attempt
// that patience, not the client's command timeout. A call that answers after the caller stopped waiting for
// it is handed to a `late` function on its own thread (a late grant is released there), and until it has
// finished the (member, owner) pair is "in flight": the next round skips that member, so no two calls of one
// owner on one member ever overlap.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "core/lock_member.hpp"
#include "primitives/multi/member_worker.hpp"

namespace dlock {

struct MemberAnswer {
  bool answered = false;  // false: not called (in flight) or no answer within the patience
  LockMember::Outcome outcome;
  std::exception_ptr error;  // the call threw
};

class MemberCalls {
 public:
  explicit MemberCalls(size_t members) : workers_(members) {}

  using Call = std::function<LockMember::Outcome(size_t)>;
  using Late = std::function<void(size_t, const MemberAnswer&)>;

  // Calls call(i) for each i that `run` marks and that `owner` has no call in
  // flight on. Returns every member's answer (answered false for the others).
  std::vector<MemberAnswer> call(uint64_t owner, const std::vector<bool>& run, Call call, Late late,
                                 std::chrono::milliseconds patience);

 private:
  struct InFlight {
    std::mutex mutex;
    std::set<std::pair<size_t, uint64_t>> calls;
  };
  std::shared_ptr<InFlight> in_flight_ = std::make_shared<InFlight>();
  std::vector<MemberWorker> workers_;
};

}  // namespace dlock
