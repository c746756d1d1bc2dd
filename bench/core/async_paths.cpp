// Section 6: the asynchronous calls (dlock_lock_acquire_async and
// dlock_lock_release_async) against the blocking ones, in one run. Uncontended:
// pairs/s of a caller that waits for each callback, against blocking pairs,
// in alternating slices. Hand-off: release by one client -> grant to a waiter
// of another client in this process, the waiter blocked in
// dlock_lock_acquire against the waiter's callback from the async runner.
#include <algorithm>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

#include "borrowed.hpp"
#include "percentile.hpp"
#include "sections.hpp"

namespace dlock_bench {
namespace {

constexpr int rounds = 8;
constexpr int64_t slice_ns = 125000000;
constexpr int handoffs = 200;
constexpr uint64_t owner = 7;

// Waits for one asynchronous call's outcome.
class Completion {
 public:
  static void on_done(int status, uint64_t, const char* message, void* ctx) {
    auto* self = static_cast<Completion*>(ctx);
    self->done_ns_ = monotonic_ns();
    self->promise_.set_value(status == DLOCK_OK ? ""
                                                : std::string(message) + " (" + std::to_string(status) + ")");
  }
  // Returns when the callback ran, and when.
  int64_t wait(const char* what) {
    const std::string failure = promise_.get_future().get();
    if (!failure.empty()) throw std::runtime_error(std::string(what) + ": " + failure);
    return done_ns_;
  }

 private:
  std::promise<std::string> promise_;
  int64_t done_ns_ = 0;
};

int64_t async_acquire(dlock_lock* lock, int64_t wait_ms) {
  Completion completion;
  require_ok(dlock_lock_acquire_async(lock, owner, wait_ms, -1, nullptr, Completion::on_done, &completion),
             "dlock_lock_acquire_async");
  return completion.wait("acquire_async");
}

void async_release(dlock_lock* lock) {
  Completion completion;
  require_ok(dlock_lock_release_async(lock, owner, Completion::on_done, &completion),
             "dlock_lock_release_async");
  completion.wait("release_async");
}

int64_t pairs_in_slice(dlock_lock* lock, bool asynchronous) {
  int64_t pairs = 0;
  const int64_t start = monotonic_ns();
  do {
    if (asynchronous) {
      async_acquire(lock, 0);
      async_release(lock);
    } else {
      require_ok(dlock_lock_acquire_owner(lock, owner, 0, -1, nullptr, nullptr), "dlock_lock_acquire_owner");
      require_ok(dlock_lock_release_owner(lock, owner), "dlock_lock_release_owner");
    }
    ++pairs;
  } while (monotonic_ns() - start < slice_ns);
  return pairs;
}

void uncontended(const BenchContext& context) {
  const ClientHandle client = open_client(context.url);
  const LockHandle lock = new_lock(client.get(), "bench:async:pair");
  pairs_in_slice(lock.get(), true);  // warms the runner, the pool and the scripts
  int64_t blocking = 0;
  int64_t asynchronous = 0;
  std::vector<double> ratios;
  for (int round = 0; round < rounds; ++round) {
    const bool async_first = round % 2 == 1;
    const int64_t first = pairs_in_slice(lock.get(), async_first);
    const int64_t second = pairs_in_slice(lock.get(), !async_first);
    const int64_t async_pairs = async_first ? first : second;
    const int64_t blocking_pairs = async_first ? second : first;
    asynchronous += async_pairs;
    blocking += blocking_pairs;
    ratios.push_back(static_cast<double>(async_pairs) / static_cast<double>(blocking_pairs));
  }
  std::sort(ratios.begin(), ratios.end());
  const double seconds = static_cast<double>(rounds) * static_cast<double>(slice_ns) / 1e9;
  context.report.row({"pairs/s, one caller waiting for each call",
                      grouped(static_cast<int64_t>(static_cast<double>(asynchronous) / seconds)) + "/s async",
                      grouped(static_cast<int64_t>(static_cast<double>(blocking) / seconds)) + "/s blocking",
                      fixed((ratios[rounds / 2 - 1] + ratios[rounds / 2]) / 2, 2), "", Verdict::info});
}

// One hand-off: `holder` releases; the time until the waiter holds the lock.
int64_t handoff_ns(dlock_lock* holder, dlock_lock* waiter, bool asynchronous) {
  require_ok(dlock_lock_acquire_owner(holder, owner, 0, -1, nullptr, nullptr), "holder acquire");
  int64_t released_ns = 0;
  int64_t granted_ns = 0;
  if (asynchronous) {
    Completion completion;
    require_ok(dlock_lock_acquire_async(waiter, owner, -1, -1, nullptr, Completion::on_done, &completion),
               "dlock_lock_acquire_async");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the waiter is subscribed and asleep
    released_ns = monotonic_ns();
    require_ok(dlock_lock_release_owner(holder, owner), "holder release");
    granted_ns = completion.wait("acquire_async");
    async_release(waiter);
  } else {
    std::thread blocked([&] {
      require_ok(dlock_lock_acquire_owner(waiter, owner, -1, -1, nullptr, nullptr), "waiter acquire");
      granted_ns = monotonic_ns();
      require_ok(dlock_lock_release_owner(waiter, owner), "waiter release");
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    released_ns = monotonic_ns();
    require_ok(dlock_lock_release_owner(holder, owner), "holder release");
    blocked.join();
  }
  return granted_ns - released_ns;
}

void handoff(const BenchContext& context) {
  const ClientHandle holder_client = open_client(context.url);
  const ClientHandle waiter_client = open_client(context.url);
  const LockHandle holder = new_lock(holder_client.get(), "bench:async:handoff");
  const LockHandle waiter = new_lock(waiter_client.get(), "bench:async:handoff");
  std::vector<int64_t> blocking;
  std::vector<int64_t> asynchronous;
  for (int i = 0; i < handoffs; ++i) {
    const bool async_first = i % 2 == 1;
    const int64_t first = handoff_ns(holder.get(), waiter.get(), async_first);
    const int64_t second = handoff_ns(holder.get(), waiter.get(), !async_first);
    (async_first ? asynchronous : blocking).push_back(first);
    (async_first ? blocking : asynchronous).push_back(second);
  }
  const int64_t async_p50 = percentile(asynchronous, 50);
  const int64_t blocking_p50 = percentile(blocking, 50);
  context.report.row({"hand-off p50 / p99, release -> waiter holds it",
                      duration(async_p50) + " / " + duration(percentile(asynchronous, 99)) + " async",
                      duration(blocking_p50) + " / " + duration(percentile(blocking, 99)) + " blocking",
                      fixed(static_cast<double>(async_p50) / static_cast<double>(blocking_p50), 2), "",
                      Verdict::info});
}

}  // namespace

void bench_async_paths(const BenchContext& context) {
  context.report.section("6. Asynchronous calls against blocking ones (ratio: async / blocking; " +
                         std::to_string(rounds) + " interleaved rounds, " + std::to_string(handoffs) +
                         " hand-offs each)");
  uncontended(context);
  handoff(context);
  context.report.note(
      "an asynchronous call runs on the client's async runner: a caller that waits for each callback "
      "pays two thread hand-overs per call that a blocking call does not; a waiter is woken by the same "
      "release message either way");
}

}  // namespace dlock_bench
