// The thread a backend's LeaderFollower runs where leaders are read rather
// than streamed (ZooKeeper, SQL): it reads when woken (signal(), from a watch
// or a notification) or when the pause the last read asked for has passed,
// tells each leader and each new value once, in order, never with a lower
// term than one told, and after an error reads again with a back-off of 50 ms
// doubling to 1 s. A subclass calls start() at the end of its constructor
// and stop() first in its destructor, so the thread never runs a read on a
// half-built or half-destroyed object.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/election_ops.hpp"

namespace dlock {

class LeaderFollowerLoop : public LeaderFollower {
 public:
  LeaderFollowerLoop(std::string name, ElectionOps::LeaderFn fn);
  ~LeaderFollowerLoop() override;
  LeaderFollowerLoop(const LeaderFollowerLoop&) = delete;
  LeaderFollowerLoop& operator=(const LeaderFollowerLoop&) = delete;

 protected:
  struct Read {
    std::optional<Leader> leader;    // nullopt: nothing read, or nobody leads
    std::chrono::milliseconds next;  // how long to wait for a signal before reading again
  };
  // One read, on the loop's thread; `signalled`: a signal woke it (else the
  // last pause passed). Throws what its requests throw (ClosedError ends the loop).
  virtual Read read(bool signalled) = 0;
  // After a read threw: what the next read must set up again.
  virtual void forget() {}

  void start();
  void stop() noexcept;
  // Wakes the loop for a read; only locks and signals (safe from a watch's callback).
  void signal();

 private:
  void run();
  bool wait(std::chrono::milliseconds pause, bool& signalled);
  void deliver(const Leader& leader);

  const std::string name_;
  const ElectionOps::LeaderFn fn_;
  std::mutex mutex_;
  std::condition_variable woken_;
  bool signalled_ = true;  // the first read is due
  bool stopping_ = false;
  std::optional<Leader> told_;
  int started_in_ = 0;  // the pid that started the thread: a forked child has none to join
  std::thread thread_;
};

}  // namespace dlock
