// One thread per RedLock member that runs the calls to it in turn, so an
// attempt costs a wake-up per member, not a thread. A worker stuck on a
// paused server holds up only that member's calls (which the caller stops
// waiting for after its patience). Stopping lets the worker finish what is
// queued (late grants must still be released) and end on its own.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace dlock {

class MemberWorker {
 public:
  MemberWorker();
  // Stops the worker; its thread ends once its queue is empty.
  ~MemberWorker();
  MemberWorker(const MemberWorker&) = delete;
  MemberWorker& operator=(const MemberWorker&) = delete;

  void post(std::function<void()> task);

 private:
  struct Queue {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> tasks;
    bool stopping = false;
  };
  static void run(const std::shared_ptr<Queue>& queue);

  std::shared_ptr<Queue> queue_ = std::make_shared<Queue>();
};

}  // namespace dlock
