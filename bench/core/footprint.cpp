// Section 5: what a client and its handles cost the process: heap per lock
// handle (mallinfo2 delta over many handles) and the client's threads
// (/proc/self/task) as it opens, holds 1 then 1,000 locks, and has 1 then 4
// blocked waiters (whose own threads are not counted).
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "borrowed.hpp"
#include "proc_threads.hpp"
#include "sections.hpp"

namespace dlock_bench {
namespace {

constexpr int handles = 10000;
constexpr int held_locks = 1000;
constexpr int64_t target_bytes_per_handle = 1024;
constexpr uint64_t holder_owner = 1;
constexpr auto settle_time = std::chrono::milliseconds(200);

int64_t heap_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<int64_t>(info.uordblks + info.hblkhd);
}

int thread_count() {
  return static_cast<int>(thread_ids().size());
}

int64_t bytes_per_handle(dlock_client* client) {
  std::vector<LockHandle> made;
  made.reserve(handles);
  const int64_t before = heap_in_use();
  for (int i = 0; i < handles; ++i) made.push_back(new_lock(client, "bench:footprint:" + std::to_string(i)));
  return (heap_in_use() - before) / handles;
}

// Threads blocked in acquire on a lock another owner holds; they leave with
// the lock when the holder releases it.
class Waiters {
 public:
  explicit Waiters(dlock_lock* lock) : lock_(lock) {}
  ~Waiters() {
    for (std::thread& thread : threads_) thread.join();
  }
  void add() {
    const uint64_t owner = holder_owner + 1 + threads_.size();
    threads_.emplace_back([this, owner] {
      if (dlock_lock_acquire_owner(lock_, owner, -1, -1, nullptr, nullptr) == DLOCK_OK) {
        dlock_lock_release_owner(lock_, owner);
      }
    });
    std::this_thread::sleep_for(settle_time);
  }
  int count() const { return static_cast<int>(threads_.size()); }

 private:
  dlock_lock* lock_;
  std::vector<std::thread> threads_;
};

}  // namespace

void bench_footprint(const BenchContext& context) {
  context.report.section("5. Footprint");
  const int baseline = thread_count();
  const ClientHandle client = open_client(context.url);
  const int64_t per_handle = bytes_per_handle(client.get());
  context.report.row({"heap per lock handle", grouped(per_handle) + " B", "", "",
                      "<= " + grouped(target_bytes_per_handle) + " B",
                      verdict(per_handle <= target_bytes_per_handle)});
  context.report.note("mallinfo2 (uordblks + hblkhd) delta over " + grouped(handles) + " dlock_lock_new");

  const auto client_threads = [&](int waiting) { return thread_count() - baseline - waiting; };
  const int opened = client_threads(0);
  std::vector<LockHandle> locks;
  const auto hold_next = [&] {
    locks.push_back(new_lock(client.get(), "bench:threads:" + std::to_string(locks.size())));
    require_ok(dlock_lock_acquire_owner(locks.back().get(), holder_owner, 0, -1, nullptr, nullptr),
               "dlock_lock_acquire_owner");
  };
  hold_next();
  std::this_thread::sleep_for(settle_time);
  const int holding_one = client_threads(0);
  while (locks.size() < held_locks) hold_next();
  const int holding_all = client_threads(0);
  int one_waiter = 0;
  int four_waiters = 0;
  {
    Waiters waiters(locks.front().get());
    waiters.add();
    one_waiter = client_threads(waiters.count());
    while (waiters.count() < 4) waiters.add();
    four_waiters = client_threads(waiters.count());
    require_ok(dlock_lock_release_owner(locks.front().get(), holder_owner), "dlock_lock_release_owner");
  }
  for (std::size_t i = 1; i < locks.size(); ++i) {
    require_ok(dlock_lock_release_owner(locks[i].get(), holder_owner), "dlock_lock_release_owner");
  }

  const bool constant = holding_one == holding_all && one_waiter == four_waiters;
  const int most = std::max({opened, holding_one, holding_all, one_waiter, four_waiters});
  context.report.row(
      {"threads per client", std::to_string(most) + " at most", "", "", "constant", verdict(constant)});
  context.report.note("threads beyond the process's own (/proc/self/task; waiting threads excluded): open " +
                      std::to_string(opened) + ", 1 hold " + std::to_string(holding_one) + ", " +
                      grouped(held_locks) + " holds " + std::to_string(holding_all) + ", 1 waiter " +
                      std::to_string(one_waiter) + ", 4 waiters " + std::to_string(four_waiters));
}

}  // namespace dlock_bench
