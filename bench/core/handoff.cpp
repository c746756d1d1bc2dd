// Section 3: contended hand-off across processes. Worker processes loop
// acquire(wait forever) / hold 1 ms / release on one lock; each grant is recorded in a
// shared mapping with CLOCK_MONOTONIC stamps (host-wide), and the parent pairs
// each release with the next grant, in grant order. The same run with a bare
// hiredis pub/sub waiter (bare_blocking_lock.hpp) is the reference; the two
// alternate ABBA.
#include <linux/futex.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

#include "bare_blocking_lock.hpp"
#include "borrowed.hpp"
#include "percentile.hpp"
#include "sections.hpp"
#include "server_counters.hpp"
#include "server_link.hpp"
#include "wakeup_latency.hpp"

namespace dlock_bench {
namespace {

constexpr int workers = 4;
constexpr int32_t grants_per_run = 500;
// Long enough for every other worker to be blocked in acquire at each release.
constexpr useconds_t hold_us = 1000;
constexpr int64_t step_aside_cap_ns = 50000000;
constexpr int64_t run_deadline_ns = 30000000000;
constexpr int64_t lease_ms = 30000;  // the bare waiter's; dlock uses its watchdog's default, the same
constexpr double target_p50_round_trips = 3.0;
constexpr int wakeup_samples = 500;
const char* const lock_name = "bench:handoff";

struct Grant {
  int64_t asked_ns;      // the acquire call began
  int64_t granted_ns;    // it returned with the lock
  int64_t releasing_ns;  // the release call began
  int64_t released_ns;   // it returned
  uint64_t token;
  int worker;
};

// Shared by the parent and the workers through an anonymous shared mapping;
// lock-free atomics work across processes there, and so does a futex on one.
struct Board {
  std::atomic<int> ready;
  std::atomic<int> go;
  std::atomic<int32_t> grants_taken;
  Grant grants[grants_per_run];
};

class Contender {
 public:
  virtual ~Contender() = default;
  virtual uint64_t acquire() = 0;
  virtual void release() = 0;
};

class DlockContender : public Contender {
 public:
  explicit DlockContender(const std::string& url)
      : client_(open_client(url)), lock_(new_lock(client_.get(), lock_name)) {}
  uint64_t acquire() override {
    uint64_t token = 0;
    require_ok(dlock_lock_acquire(lock_.get(), -1, -1, &token), "dlock_lock_acquire");
    return token;
  }
  void release() override { require_ok(dlock_lock_release(lock_.get()), "dlock_lock_release"); }

 private:
  ClientHandle client_;
  LockHandle lock_;
};

class BareContender : public Contender {
 public:
  explicit BareContender(const dlock::ClientConfig& server) : lock_(server, lock_name, lease_ms) {}
  uint64_t acquire() override { return lock_.acquire(); }
  void release() override { lock_.release(); }

 private:
  BareBlockingLock lock_;
};

// Sleeps while *word == expected, at most until `timeout_ns` passed.
void futex_wait(std::atomic<int32_t>& word, int32_t expected, int64_t timeout_ns) {
  const timespec timeout{static_cast<time_t>(timeout_ns / 1000000000),
                         static_cast<long>(timeout_ns % 1000000000)};
  syscall(SYS_futex, reinterpret_cast<int32_t*>(&word), FUTEX_WAIT, expected, &timeout, nullptr, 0);
}

void futex_wake_all(std::atomic<int32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<int32_t*>(&word), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
}

void contend(Contender& contender, Board& board, int worker) {
  board.ready.fetch_add(1);
  while (board.go.load() == 0) usleep(100);
  for (;;) {
    const int64_t asked_ns = monotonic_ns();
    const uint64_t token = contender.acquire();
    const int64_t granted_ns = monotonic_ns();
    const int32_t index = board.grants_taken.fetch_add(1);
    futex_wake_all(board.grants_taken);  // the previous holder may queue up again
    if (index >= grants_per_run) {
      contender.release();
      return;
    }
    Grant& grant = board.grants[index];
    grant = Grant{asked_ns, granted_ns, 0, 0, token, worker};
    usleep(hold_us);
    grant.releasing_ns = monotonic_ns();
    contender.release();
    grant.released_ns = monotonic_ns();
    // Step aside until another process holds the lock, so that a release
    // hands it to a waiter rather than back to its own releaser.
    futex_wait(board.grants_taken, index + 1, step_aside_cap_ns);
  }
}

int run_worker(const BenchContext& context, bool bare, Board& board, int worker) {
  try {
    const std::unique_ptr<Contender> contender =
        bare ? std::unique_ptr<Contender>(new BareContender(context.server))
             : std::unique_ptr<Contender>(new DlockContender(context.url));
    contend(*contender, board, worker);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hand-off worker %d: %s\n", worker, error.what());
    return 1;
  }
}

// Waits for every worker; kills those still running at the deadline.
bool reap(const std::vector<pid_t>& pids, int64_t deadline_ns) {
  bool all_succeeded = true;
  for (const pid_t pid : pids) {
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (monotonic_ns() > deadline_ns) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        break;
      }
      usleep(1000);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "hand-off worker %d: %s %d\n", static_cast<int>(pid),
                   WIFSIGNALED(status) ? "killed by signal" : "exit status",
                   WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
      all_succeeded = false;
    }
  }
  return all_succeeded;
}

struct Analysis {
  std::vector<int64_t> handoff_ns;  // release -> grant to another process already waiting
  std::vector<int64_t> release_ns;  // the release call of each of those hand-offs
  int64_t not_handoffs = 0;         // the next grant went to the releaser, or to no waiter
  int64_t token_inversions = 0;     // a later grant with a token not above the previous one
  int64_t overlaps = 0;             // a grant stamped before the previous holder's release began

  void add(const Board& board) {
    for (int32_t i = 1; i < grants_per_run; ++i) {
      const Grant& previous = board.grants[i - 1];
      const Grant& next = board.grants[i];
      if (next.token <= previous.token) ++token_inversions;
      if (next.granted_ns < previous.releasing_ns) ++overlaps;
      if (next.worker != previous.worker && next.asked_ns < previous.releasing_ns) {
        handoff_ns.push_back(next.granted_ns - previous.releasing_ns);
        release_ns.push_back(previous.released_ns - previous.releasing_ns);
      } else {
        ++not_handoffs;
      }
    }
  }
};

void run(const BenchContext& context, bool bare, Analysis& analysis) {
  void* shared = mmap(nullptr, sizeof(Board), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) throw std::runtime_error("mmap of the shared grant board failed");
  Board& board = *new (shared) Board{};
  std::fflush(nullptr);
  std::vector<pid_t> pids;
  for (int worker = 0; worker < workers; ++worker) {
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) _exit(run_worker(context, bare, board, worker));
    pids.push_back(pid);
  }
  const int64_t deadline_ns = monotonic_ns() + run_deadline_ns;
  while (board.ready.load() < workers && monotonic_ns() < deadline_ns) usleep(1000);
  board.go.store(1);
  const bool succeeded = reap(pids, deadline_ns) && board.grants_taken.load() >= grants_per_run;
  if (succeeded) analysis.add(board);
  munmap(shared, sizeof(Board));
  if (!succeeded) {
    throw std::runtime_error(std::string(bare ? "bare" : "dlock") +
                             " hand-off workers failed or ran out of time");
  }
}

}  // namespace

void bench_handoff(const BenchContext& context) {
  context.report.section("3. Contended hand-off, " + std::to_string(workers) + " processes on one lock, " +
                         "runs of " + grouped(grants_per_run) + " grants, ABBA");
  RedisConnection link = connect(context.server);
  TrafficMeter meter(link);
  meter.start();
  Analysis dlock;
  Analysis bare;
  run(context, false, dlock);
  run(context, true, bare);
  run(context, true, bare);
  run(context, false, dlock);
  const ServerCounters server = meter.stop();

  const auto as_round_trips = [&](int64_t ns) {
    return fixed(static_cast<double>(ns) / static_cast<double>(context.round_trip_ns), 1) + " RT";
  };
  const auto both = [&](double p) {
    const int64_t ours = percentile(dlock.handoff_ns, p);
    const int64_t theirs = percentile(bare.handoff_ns, p);
    return std::make_pair(ours, theirs);
  };
  const auto [p50, bare_p50] = both(50);
  const auto [p99, bare_p99] = both(99);
  const auto ratio = [](int64_t ours, int64_t theirs) {
    return fixed(static_cast<double>(ours) / static_cast<double>(theirs), 2) + " x bare";
  };
  context.report.row({"hand-off p50", duration(p50) + " = " + as_round_trips(p50),
                      duration(bare_p50) + " = " + as_round_trips(bare_p50) + " bare pub/sub",
                      ratio(p50, bare_p50), "<= " + fixed(target_p50_round_trips, 0) + " RT",
                      verdict(static_cast<double>(p50) <=
                              target_p50_round_trips * static_cast<double>(context.round_trip_ns))});
  context.report.row({"hand-off p99", duration(p99) + " = " + as_round_trips(p99),
                      duration(bare_p99) + " = " + as_round_trips(bare_p99) + " bare pub/sub",
                      ratio(p99, bare_p99), "no polling interval", Verdict::info});
  const auto wakeup = [&](bool cross_cpu) {
    const int64_t ns = process_wakeup_ns(wakeup_samples, cross_cpu);
    return duration(ns) + " = " + as_round_trips(ns);
  };
  context.report.row({"host: process wake-up p50", "",
                      wakeup(false) + " same CPU, " + wakeup(true) + " across CPUs", "", "", Verdict::info});
  context.report.row(
      {"grant order (all dlock grants)",
       grouped(dlock.token_inversions) + " token inversions, " + grouped(dlock.overlaps) + " overlaps", "",
       "", "none", verdict(dlock.token_inversions == 0 && dlock.overlaps == 0)});
  context.report.note(
      "hand-off = release call begins -> acquire returns in another process that was already "
      "waiting; " +
      grouped(static_cast<int64_t>(dlock.handoff_ns.size())) + " dlock and " +
      grouped(static_cast<int64_t>(bare.handoff_ns.size())) + " bare hand-offs (" +
      grouped(dlock.not_handoffs + bare.not_handoffs) + " other transitions left out); max " +
      duration(percentile(dlock.handoff_ns, 100)) + " dlock, " + duration(percentile(bare.handoff_ns, 100)) +
      " bare");
  context.report.note("of which the release call (p50): " + duration(percentile(dlock.release_ns, 50)) +
                      " dlock, " + duration(percentile(bare.release_ns, 50)) + " bare");
  context.report.note("server time per script call: " + grouped(server.us_per_script()) +
                      " us; each release " +
                      "wakes every waiting process (Redisson's channel), and each sends an acquire script");
}

}  // namespace dlock_bench
