#include "primitives/multi/member_worker.hpp"

#include <thread>

namespace dlock {

MemberWorker::MemberWorker() {
  // Detached: the queue outlives this object for as long as the thread needs it.
  std::thread([queue = queue_] { run(queue); }).detach();
}

MemberWorker::~MemberWorker() {
  {
    std::lock_guard<std::mutex> lock(queue_->mutex);
    queue_->stopping = true;
  }
  queue_->wake.notify_one();
}

void MemberWorker::post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(queue_->mutex);
    queue_->tasks.push_back(std::move(task));
  }
  queue_->wake.notify_one();
}

void MemberWorker::run(const std::shared_ptr<Queue>& queue) {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(queue->mutex);
      queue->wake.wait(lock, [&] { return queue->stopping || !queue->tasks.empty(); });
      if (queue->tasks.empty()) return;  // stopping, and nothing left to do
      task = std::move(queue->tasks.front());
      queue->tasks.pop_front();
    }
    task();
  }
}

}  // namespace dlock
