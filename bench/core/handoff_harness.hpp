// The cross-process hand-off harness of sections 3 and 12: worker processes,
// each with a contender of its own (a client and a lock, an election
// candidate, a bare hiredis waiter), loop acquire (wait forever) / hold 1 ms /
// release on one name. Each grant is recorded in a shared mapping with
// CLOCK_MONOTONIC stamps (host-wide); the caller pairs each release with the
// next grant, in grant order.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "borrowed.hpp"

namespace dlock_bench {

struct Grant {
  int64_t asked_ns;      // the acquire call began
  int64_t granted_ns;    // it returned with the lock
  int64_t releasing_ns;  // the release call began
  int64_t released_ns;   // it returned
  uint64_t token;
  int worker;
};

class Contender {
 public:
  virtual ~Contender() = default;
  virtual uint64_t acquire() = 0;  // waits as long as it takes; the token (the term)
  virtual void release() = 0;
};

// dlock_lock_acquire(lock, -1, -1) / dlock_lock_release on a plain lock of
// its own client.
class LockContender : public Contender {
 public:
  LockContender(const std::string& url, const std::string& name,
                const dlock_client_options& options = default_options());
  uint64_t acquire() override;
  void release() override;

 private:
  ClientHandle client_;
  LockHandle lock_;
};

// Builds worker `worker`'s contender, in the worker's process.
using ContenderFactory = std::function<std::unique_ptr<Contender>(int worker)>;

struct HandoffRun {
  int workers;
  int32_t grants;  // recorded, in grant order
  ContenderFactory make;
  std::string what;                // names the run in messages
  std::function<void()> on_ready;  // in the parent, every worker connected, before the first acquire
};

// Runs the workers until `grants` grants are recorded; throws when a worker
// fails or the run takes over 30 s.
std::vector<Grant> run_handoffs(const HandoffRun& run);

struct HandoffAnalysis {
  std::vector<int64_t> handoff_ns;  // release begins -> grant to another process already waiting
  std::vector<int64_t> release_ns;  // the release call of each of those hand-offs
  std::vector<const Grant*> taken;  // the grant of each hand-off (into the vectors added)
  int64_t not_handoffs = 0;         // the next grant went to the releaser, or to no waiter
  int64_t token_inversions = 0;     // a later grant with a token not above the previous one
  int64_t overlaps = 0;             // a grant stamped before the previous holder's release began

  // `grants` must outlive the analysis (taken points into it).
  void add(const std::vector<Grant>& grants);
};

// Waits for every process; kills those still running at the deadline.
// Whether every one exited with status 0 (the others are named on stderr).
bool reap(const std::vector<pid_t>& pids, int64_t deadline_ns, const std::string& what);

// fork()s a child that exits with `child`'s return (1 on an exception, told
// on stderr with `what`); the child's pid.
pid_t fork_worker(const std::function<int()>& child, const std::string& what);

}  // namespace dlock_bench
