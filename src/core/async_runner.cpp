#include "core/async_runner.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace dlock {

AsyncRunner::~AsyncRunner() {
  stop();
}

void AsyncRunner::nudge() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    nudged_ = true;
  }
  wake_.notify_one();
}

void AsyncRunner::submit(Step step, Waiter* waiter) {
  auto job = std::make_shared<Job>();
  job->step = std::move(step);
  // Set before the first step registers the waiter anywhere; the job (and
  // so this pointer) outlives every registration, which its step state owns.
  Job* raw = job.get();
  if (waiter != nullptr) {
    waiter->on_news = [this, raw] {
      raw->news.store(true);
      nudge();
    };
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) throw ClosedError("the client is closed");
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    jobs_.push_back(std::move(job));
    nudged_ = true;
  }
  wake_.notify_one();
}

void AsyncRunner::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void AsyncRunner::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  // Jobs are destroyed outside the mutex: a finished job's state unregisters
  // its waiter from the subscriber, whose signals take this mutex.
  std::vector<std::shared_ptr<Job>> ready;
  for (;;) {
    Clock::time_point next = Clock::time_point::max();
    for (const auto& job : jobs_) next = std::min(next, job->due);
    wake_.wait_until(lock, next, [&] { return nudged_ || stopping_; });
    nudged_ = false;
    const bool last_pass = stopping_;
    const Clock::time_point now = Clock::now();
    for (const auto& job : jobs_) {
      if (job->news.exchange(false) || job->due <= now || last_pass) ready.push_back(job);
    }
    lock.unlock();
    std::vector<std::pair<Job*, std::optional<Clock::time_point>>> outcomes;
    for (const auto& job : ready) outcomes.emplace_back(job.get(), job->step());
    lock.lock();
    for (const auto& [job, next_step] : outcomes) {
      if (next_step) {
        job->due = *next_step;
      } else {
        jobs_.erase(
            std::find_if(jobs_.begin(), jobs_.end(), [&](const auto& held) { return held.get() == job; }));
      }
    }
    // A job still pending after its last pass has nothing left to wait for.
    if (last_pass) break;
    lock.unlock();
    ready.clear();
    lock.lock();
  }
  std::vector<std::shared_ptr<Job>> leftovers;
  leftovers.swap(jobs_);
  lock.unlock();
}

}  // namespace dlock
