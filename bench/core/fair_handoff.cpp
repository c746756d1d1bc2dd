// Section 8: the fair lock's hand-off with 1, 10 and 1,000 waiters. Threads in
// a few worker processes (one client each) loop acquire / hold / release on
// one fair lock, so after each release the queue still holds `waiters`
// threads, the next one of which is granted inside the release. Every grant
// is stamped (CLOCK_MONOTONIC, host-wide) in a shared mapping; the parent
// pairs each release with the next grant. The server's counters over the
// run give the commands per grant, which must not grow with the waiters.
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <thread>
#include <vector>

#include "borrowed.hpp"
#include "percentile.hpp"
#include "sections.hpp"
#include "server_counters.hpp"
#include "server_link.hpp"

namespace dlock_bench {
namespace {

constexpr int max_processes = 4;
constexpr int measured_grants = 300;
constexpr useconds_t hold_us = 1000;
// After its release a thread waits this long before it queues again: the
// reentrant lock's releaser would otherwise take the lock straight back (the
// fair lock's joins the tail of the queue either way).
constexpr useconds_t step_aside_us = 300;
constexpr int64_t run_deadline_ns = 120000000000;
constexpr double target_p50_round_trips = 3.0;
const char* const lock_name = "bench:fair";

struct Stamp {
  int64_t asked_ns;
  int64_t granted_ns;
  int64_t releasing_ns;
  uint64_t token;
  int contender;
};

// Shared by the parent and the workers (an anonymous shared mapping).
struct FairBoard {
  std::atomic<int> connected;
  std::atomic<int> go;
  std::atomic<int32_t> grants;  // every grant, the draining ones included
  int32_t recorded;             // grants stamped: warm-up + measured

  // The stamps follow the board in the mapping, `recorded` of them.
  Stamp* stamps() { return reinterpret_cast<Stamp*>(this + 1); }
};

std::size_t board_size(int32_t recorded) {
  return sizeof(FairBoard) + sizeof(Stamp) * static_cast<std::size_t>(recorded);
}

// One thread's loop: it queues again right after each release, so the queue
// stays full; once enough grants are stamped it releases and leaves.
void contend(dlock_lock* lock, FairBoard& board, int contender) {
  for (;;) {
    const int64_t asked_ns = monotonic_ns();
    uint64_t token = 0;
    require_ok(dlock_lock_acquire(lock, -1, -1, &token), "dlock_lock_acquire (fair)");
    const int64_t granted_ns = monotonic_ns();
    const int32_t index = board.grants.fetch_add(1);
    if (index >= board.recorded) {
      require_ok(dlock_lock_release(lock), "dlock_lock_release (fair)");
      return;
    }
    Stamp& stamp = board.stamps()[index];
    stamp = Stamp{asked_ns, granted_ns, 0, token, contender};
    usleep(hold_us);
    stamp.releasing_ns = monotonic_ns();
    require_ok(dlock_lock_release(lock), "dlock_lock_release (fair)");
    usleep(step_aside_us);
  }
}

int run_process(const std::string& url, bool fair, FairBoard& board, int first, int count) {
  try {
    const ClientHandle client = open_client(url);
    const LockHandle lock =
        fair ? dlock_test::new_fair_lock(client.get(), lock_name) : new_lock(client.get(), lock_name);
    board.connected.fetch_add(1);
    while (board.go.load() == 0) usleep(100);
    std::vector<std::thread> threads;
    for (int i = 0; i < count; ++i) {
      threads.emplace_back([&, i] { contend(lock.get(), board, first + i); });
      // Queued one after the other, each thread at its own place.
      usleep(200);
    }
    for (std::thread& thread : threads) thread.join();
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "queue hand-off worker: %s\n", error.what());
    return 1;
  }
}

struct FairRun {
  std::vector<int64_t> handoff_ns;
  int64_t grants = 0;
  int64_t out_of_order = 0;  // a grant whose token is not above the previous one
  ServerCounters server;
};

// `fair`: the fair lock, else the reentrant lock in the same harness (the reference).
FairRun run(const BenchContext& context, int waiters, bool fair) {
  const int contenders = waiters + 1;
  const int processes = std::min(contenders, max_processes);
  const int32_t recorded = contenders + measured_grants;
  void* shared =
      mmap(nullptr, board_size(recorded), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) throw std::runtime_error("mmap of the fair hand-off board failed");
  FairBoard& board = *new (shared) FairBoard{};
  board.recorded = recorded;
  RedisConnection link = connect(context.server);
  TrafficMeter meter(link);
  std::fflush(nullptr);
  std::vector<pid_t> pids;
  for (int p = 0; p < processes; ++p) {
    const int first = p * contenders / processes;
    const int count = (p + 1) * contenders / processes - first;
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) _exit(run_process(context.url, fair, board, first, count));
    pids.push_back(pid);
  }
  const int64_t deadline_ns = monotonic_ns() + run_deadline_ns;
  while (board.connected.load() < processes && monotonic_ns() < deadline_ns) usleep(1000);
  meter.start();
  board.go.store(1);
  bool succeeded = true;
  for (const pid_t pid : pids) {
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (monotonic_ns() > deadline_ns) kill(pid, SIGKILL);
      usleep(2000);
    }
    succeeded = succeeded && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  FairRun result;
  result.server = meter.stop();
  result.grants = board.grants.load();
  // Hand-offs once the queue is full: the next grant went to a thread already waiting.
  for (int32_t i = contenders + 1; i < recorded; ++i) {
    const Stamp& previous = board.stamps()[i - 1];
    const Stamp& next = board.stamps()[i];
    if (next.token <= previous.token) ++result.out_of_order;
    if (next.contender != previous.contender && next.asked_ns < previous.releasing_ns) {
      result.handoff_ns.push_back(next.granted_ns - previous.releasing_ns);
    }
  }
  munmap(shared, board_size(recorded));
  if (!succeeded) throw std::runtime_error("queue hand-off workers failed or ran out of time");
  return result;
}

}  // namespace

void bench_fair_handoff(const BenchContext& context) {
  context.report.section("8. Fair lock hand-off (release -> the head of the queue holds it), up to " +
                         std::to_string(max_processes) + " processes, " + grouped(measured_grants) +
                         " measured grants per queue length; reference: the reentrant lock, same harness");
  const auto ratio = [](double ours, double theirs) { return fixed(ours / theirs, 2) + " x lock"; };
  std::vector<double> commands_per_grant;
  for (const int waiters : {1, 10, 1000}) {
    const FairRun fair = run(context, waiters, true);
    const FairRun lock = run(context, waiters, false);
    const std::string label = grouped(waiters) + (waiters == 1 ? " waiter" : " waiters");
    if (fair.handoff_ns.empty() || lock.handoff_ns.empty()) {
      throw std::runtime_error(label + ": no hand-off to measure (every release went back to its releaser)");
    }
    for (const double p : {50.0, 99.0}) {
      const int64_t ours = percentile(fair.handoff_ns, p);
      const int64_t theirs = percentile(lock.handoff_ns, p);
      const bool median = p == 50.0;
      context.report.row({label + ": hand-off p" + fixed(p, 0), duration_in_round_trips(context, ours),
                          duration_in_round_trips(context, theirs) + " lock",
                          ratio(static_cast<double>(ours), static_cast<double>(theirs)),
                          median ? "<= " + fixed(target_p50_round_trips, 0) + " RT" : "",
                          median
                              ? verdict(static_cast<double>(ours) <=
                                        target_p50_round_trips * static_cast<double>(context.round_trip_ns))
                              : Verdict::info});
    }
    const auto per_grant = [](const FairRun& run, int64_t counted) {
      return static_cast<double>(counted) / static_cast<double>(run.grants);
    };
    const double commands = per_grant(fair, fair.server.all_calls);
    commands_per_grant.push_back(commands);
    context.report.row(
        {label + ": Redis commands per grant",
         fixed(commands, 1) + " (" + fixed(per_grant(fair, fair.server.scripts), 2) + " scripts)",
         fixed(per_grant(lock, lock.server.all_calls), 1) + " (" +
             fixed(per_grant(lock, lock.server.scripts), 2) + " scripts) lock",
         ratio(commands, per_grant(lock, lock.server.all_calls)), "not growing with waiters", Verdict::info});
    context.report.row({label + ": grant order", grouped(fair.out_of_order) + " token inversions", "", "",
                        "none", verdict(fair.out_of_order == 0)});
    context.report.note(label + ": " + grouped(static_cast<int64_t>(fair.handoff_ns.size())) +
                        " fair hand-offs measured, " + grouped(fair.grants) +
                        " grants in all (the queue's filling and draining, and the heartbeats, are in the "
                        "command counts)");
  }
  const double growth = commands_per_grant.back() / commands_per_grant.front();
  context.report.row({"commands per grant, 1,000 waiters / 1 waiter", fixed(growth, 2) + " x", "", "",
                      "<= 1.5 x", verdict(growth <= 1.5)});
  context.report.note(
      "commands per grant: every call in INFO commandstats, those run inside the scripts "
      "included; Redisson's RFairLock is compared in bench/java (FairHandoffs)");
}

}  // namespace dlock_bench
