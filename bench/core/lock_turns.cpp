// Section 11: the reentrant lock under contention, with and without the
// waiters' turns (docs/safety.md, "Which attempts are refused"). Threads in
// several processes loop acquire (wait forever) / release on one lock; each
// grant is stamped (CLOCK_MONOTONIC, host-wide) in a shared mapping, in grant
// order, and the server's counters over the run give the scripts per grant.
// Three variants run in the same harness, one after the other: this build
// with its default turns, this build with ?release_yield_ms=0 (no turns), and
// with --baseline-lib an earlier build's libdlock.so, loaded in the workers
// (the lock calls used here have kept their C signatures).
#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <thread>
#include <vector>

#include "borrowed.hpp"
#include "dlock.h"
#include "percentile.hpp"
#include "sections.hpp"
#include "server_counters.hpp"
#include "server_link.hpp"

namespace dlock_bench {
namespace {

constexpr int processes = 4;
constexpr int threads_per_process = 4;
constexpr int fairness_processes = 8;
constexpr useconds_t fairness_hold_us = 1000;  // as bench/python/bench_locks.py
constexpr int64_t run_ns = 3000000000;
constexpr int64_t sweep_run_ns = 1000000000;
constexpr int64_t drain_deadline_ns = 30000000000;
constexpr int32_t max_stamps = 1 << 18;
constexpr double target_p50_round_trips = 3.0;
constexpr int64_t target_p99_ns = 1000000;
constexpr double target_scripts_per_grant = 4.0;
constexpr double target_throughput_kept = 0.8;
constexpr double target_fairness = 0.9;
const char* const lock_name = "bench:turns";

// The C calls a worker makes, from this build or from a loaded library.
struct LockCalls {
  decltype(&dlock_client_open) client_open;
  decltype(&dlock_client_close) client_close;
  decltype(&dlock_lock_new) lock_new;
  decltype(&dlock_lock_free) lock_free;
  decltype(&dlock_lock_acquire) acquire;
  decltype(&dlock_lock_release) release;
};

template <typename Function>
Function resolve(void* library, const char* name) {
  void* found = dlsym(library, name);
  if (found == nullptr) throw std::runtime_error(std::string("the baseline library has no ") + name);
  return reinterpret_cast<Function>(found);
}

// RTLD_DEEPBIND: the library's calls to its own symbols stay inside it.
LockCalls loaded_calls(const std::string& path) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (library == nullptr) throw std::runtime_error("dlopen " + path + ": " + dlerror());
  return {resolve<decltype(&dlock_client_open)>(library, "dlock_client_open"),
          resolve<decltype(&dlock_client_close)>(library, "dlock_client_close"),
          resolve<decltype(&dlock_lock_new)>(library, "dlock_lock_new"),
          resolve<decltype(&dlock_lock_free)>(library, "dlock_lock_free"),
          resolve<decltype(&dlock_lock_acquire)>(library, "dlock_lock_acquire"),
          resolve<decltype(&dlock_lock_release)>(library, "dlock_lock_release")};
}

struct Variant {
  std::string label;
  std::string url;
  std::string library;  // empty: this build's
};

struct Shape {
  int processes;
  int contenders;  // threads, spread evenly over the processes
  useconds_t hold_us;
  int64_t run_ns;
};

struct Stamp {
  int64_t asked_ns;
  int64_t granted_ns;
  int64_t releasing_ns;
  int contender;
  int process;
};

// Shared by the parent and the workers (an anonymous shared mapping).
struct Board {
  std::atomic<int> ready;
  std::atomic<int> go;
  std::atomic<int> stop;
  std::atomic<int32_t> grants;
  Stamp stamps[max_stamps];
};

// A worker's failed call ends its process; the parent reports it.
void require(int status, const char* call) {
  if (status == DLOCK_OK) return;
  std::fprintf(stderr, "lock turns worker: %s returned %d\n", call, status);
  std::_Exit(1);
}

void contend(const LockCalls& calls, dlock_lock* lock, Board& board, useconds_t hold_us, int contender,
             int process) {
  board.ready.fetch_add(1);
  while (board.go.load() == 0) usleep(100);
  for (;;) {
    const int64_t asked_ns = monotonic_ns();
    require(calls.acquire(lock, -1, -1, nullptr), "dlock_lock_acquire");
    const int64_t granted_ns = monotonic_ns();
    const int32_t index = board.stop.load() != 0 ? max_stamps : board.grants.fetch_add(1);
    if (index >= max_stamps) {
      require(calls.release(lock), "dlock_lock_release");
      return;
    }
    Stamp& stamp = board.stamps[index];
    stamp = Stamp{asked_ns, granted_ns, 0, contender, process};
    if (hold_us > 0) usleep(hold_us);
    stamp.releasing_ns = monotonic_ns();
    require(calls.release(lock), "dlock_lock_release");
  }
}

int run_process(const Variant& variant, const Shape& shape, Board& board, int process) {
  try {
    const LockCalls calls = variant.library.empty()
                                ? LockCalls{&dlock_client_open, &dlock_client_close, &dlock_lock_new,
                                            &dlock_lock_free,   &dlock_lock_acquire, &dlock_lock_release}
                                : loaded_calls(variant.library);
    dlock_client* client = nullptr;
    require(calls.client_open(variant.url.c_str(), nullptr, &client), "dlock_client_open");
    dlock_lock* lock = nullptr;
    require(calls.lock_new(client, lock_name, &lock), "dlock_lock_new");
    const int first = process * shape.contenders / shape.processes;
    const int count = (process + 1) * shape.contenders / shape.processes - first;
    std::vector<std::thread> threads;
    for (int i = 0; i < count; ++i) {
      threads.emplace_back(contend, std::cref(calls), lock, std::ref(board), shape.hold_us, first + i,
                           process);
    }
    for (std::thread& thread : threads) thread.join();
    calls.lock_free(lock);
    calls.client_close(client);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lock turns worker: %s\n", error.what());
    return 1;
  }
}

struct Outcome {
  double grants_per_second = 0;
  double scripts_per_grant = 0;
  std::vector<int64_t> handoff_ns;  // release -> grant to another thread already waiting
  int64_t fewest = 0;               // grants of the process with the fewest
  int64_t most = 0;
  int64_t overlaps = 0;  // a grant stamped before the previous holder's release began
};

Outcome analyse(const Board& board, int32_t grants, const Shape& shape) {
  Outcome outcome;
  std::vector<int64_t> per_process(static_cast<std::size_t>(shape.processes), 0);
  for (int32_t i = 0; i < grants; ++i) {
    const Stamp& next = board.stamps[i];
    ++per_process[static_cast<std::size_t>(next.process)];
    if (i == 0) continue;
    const Stamp& previous = board.stamps[i - 1];
    if (next.granted_ns < previous.releasing_ns) ++outcome.overlaps;
    if (next.contender != previous.contender && next.asked_ns < previous.releasing_ns) {
      outcome.handoff_ns.push_back(next.granted_ns - previous.releasing_ns);
    }
  }
  outcome.fewest = *std::min_element(per_process.begin(), per_process.end());
  outcome.most = *std::max_element(per_process.begin(), per_process.end());
  return outcome;
}

Outcome run(const BenchContext& context, const Variant& variant, const Shape& shape) {
  void* shared = mmap(nullptr, sizeof(Board), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) throw std::runtime_error("mmap of the lock turns board failed");
  Board& board = *new (shared) Board{};
  RedisConnection link = connect(context.server);
  TrafficMeter meter(link);
  std::fflush(nullptr);
  std::vector<pid_t> pids;
  for (int process = 0; process < shape.processes; ++process) {
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) _exit(run_process(variant, shape, board, process));
    pids.push_back(pid);
  }
  const int64_t deadline_ns = monotonic_ns() + drain_deadline_ns;
  while (board.ready.load() < shape.contenders && monotonic_ns() < deadline_ns) usleep(1000);
  meter.start();
  const int64_t began_ns = monotonic_ns();
  board.go.store(1);
  usleep(static_cast<useconds_t>(shape.run_ns / 1000));
  board.stop.store(1);
  const int64_t ended_ns = monotonic_ns();
  bool succeeded = true;
  for (const pid_t pid : pids) {
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (monotonic_ns() > deadline_ns) kill(pid, SIGKILL);
      usleep(2000);
    }
    succeeded = succeeded && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  const ServerCounters server = meter.stop();
  const int32_t grants = std::min(board.grants.load(), max_stamps);
  Outcome outcome = analyse(board, grants, shape);
  munmap(shared, sizeof(Board));
  if (!succeeded || grants < 2) throw std::runtime_error(variant.label + ": lock turns workers failed");
  outcome.grants_per_second = static_cast<double>(grants) * 1e9 / static_cast<double>(ended_ns - began_ns);
  outcome.scripts_per_grant = static_cast<double>(server.scripts) / static_cast<double>(grants);
  return outcome;
}

std::vector<Variant> variants(const BenchContext& context) {
  const char separator = context.url.find('?') == std::string::npos ? '?' : '&';
  std::vector<Variant> all{{"turns", context.url, ""},
                           {"release_yield_ms=0", context.url + separator + "release_yield_ms=0", ""}};
  if (!context.baseline_library.empty()) all.push_back({"baseline", context.url, context.baseline_library});
  return all;
}

// "x without turns, y baseline": the other variants' figures, for the reference column.
template <typename Format>
std::string others(const std::vector<Variant>& all, const std::vector<Outcome>& outcomes, Format format) {
  std::string text;
  for (std::size_t i = 1; i < all.size(); ++i) {
    text += (i > 1 ? "; " : "") + format(outcomes[i]) + " " + all[i].label;
  }
  return text;
}

}  // namespace

void bench_lock_turns(const BenchContext& context) {
  const std::vector<Variant> all = variants(context);
  const std::string baseline =
      context.baseline_library.empty() ? "" : ", and baseline = " + context.baseline_library;
  context.report.section("11. Lock hand-off under contention, " + std::to_string(processes) +
                         " processes x " + std::to_string(threads_per_process) +
                         " threads, nothing held between acquire and release; with turns (the default), "
                         "with release_yield_ms=0" + baseline);
  const Shape contended{processes, processes * threads_per_process, 0, run_ns};
  std::vector<Outcome> outcomes;
  for (const Variant& variant : all) outcomes.push_back(run(context, variant, contended));
  const Outcome& turns = outcomes.front();
  const Outcome& no_turns = outcomes[1];
  for (const Outcome& outcome : outcomes) {
    if (outcome.handoff_ns.empty()) throw std::runtime_error("no hand-off to measure");
  }

  const auto rate = [](const Outcome& o) { return grouped(static_cast<int64_t>(o.grants_per_second)); };
  const double kept = turns.grants_per_second / no_turns.grants_per_second;
  context.report.row({"grants/s", rate(turns), others(all, outcomes, rate), fixed(kept, 2) + " x no turns",
                      ">= " + fixed(target_throughput_kept, 1) + " x no turns",
                      verdict(kept >= target_throughput_kept)});
  const auto p50 = [](const Outcome& o) { return percentile(o.handoff_ns, 50); };
  const auto p99 = [](const Outcome& o) { return percentile(o.handoff_ns, 99); };
  const auto p50_text = [&](const Outcome& o) { return duration_in_round_trips(context, p50(o)); };
  context.report.row({"hand-off p50", p50_text(turns), others(all, outcomes, p50_text), "",
                      "<= " + fixed(target_p50_round_trips, 0) + " RT",
                      verdict(static_cast<double>(p50(turns)) <=
                              target_p50_round_trips * static_cast<double>(context.round_trip_ns))});
  const auto p99_text = [&](const Outcome& o) { return duration(p99(o)); };
  context.report.row({"hand-off p99", p99_text(turns), others(all, outcomes, p99_text), "",
                      "<= " + duration(target_p99_ns) + " (idle host)",
                      verdict(p99(turns) <= target_p99_ns)});
  const auto scripts = [](const Outcome& o) { return fixed(o.scripts_per_grant, 2); };
  context.report.row({"scripts per grant", scripts(turns), others(all, outcomes, scripts), "",
                      "<= " + fixed(target_scripts_per_grant, 0),
                      verdict(turns.scripts_per_grant <= target_scripts_per_grant)});
  const auto spread = [](const Outcome& o) { return grouped(o.fewest) + "/" + grouped(o.most); };
  context.report.row({"grants per process, fewest/most", spread(turns), others(all, outcomes, spread), "", "",
                      Verdict::info});
  int64_t overlaps = 0;
  for (const Outcome& outcome : outcomes) overlaps += outcome.overlaps;
  context.report.row(
      {"overlapping holds (all variants)", grouped(overlaps), "", "", "none", verdict(overlaps == 0)});

  // The scripts per grant as the waiters grow: one thread holds, the rest wait.
  std::vector<double> sweep;
  for (const int waiters : {2, 4, 8, 16, 32, 64}) {
    const Shape shape{std::min(waiters + 1, processes), waiters + 1, 0, sweep_run_ns};
    std::vector<Outcome> sized;
    for (const Variant& variant : all) sized.push_back(run(context, variant, shape));
    sweep.push_back(sized.front().scripts_per_grant);
    context.report.row({std::to_string(waiters) + " waiters: scripts per grant",
                        scripts(sized.front()), others(all, sized, scripts), "",
                        "<= " + fixed(target_scripts_per_grant, 0),
                        verdict(sized.front().scripts_per_grant <= target_scripts_per_grant)});
  }
  const double growth =
      *std::max_element(sweep.begin(), sweep.end()) / *std::min_element(sweep.begin(), sweep.end());
  context.report.row({"scripts per grant, most / fewest over 2..64 waiters", fixed(growth, 2) + " x", "", "",
                      "constant (<= 1.5 x)", verdict(growth <= 1.5)});

  // The fairness bench/python/bench_locks.py measures: one thread per process, 1 ms held.
  const Shape fairness{fairness_processes, fairness_processes, fairness_hold_us, run_ns};
  std::vector<Outcome> fair;
  for (const Variant& variant : all) fair.push_back(run(context, variant, fairness));
  const auto evenness = [](const Outcome& o) {
    return static_cast<double>(o.fewest) / static_cast<double>(std::max<int64_t>(o.most, 1));
  };
  const auto fair_text = [&](const Outcome& o) { return spread(o) + " = " + fixed(evenness(o), 2); };
  context.report.row({std::to_string(fairness_processes) +
                          " processes, 1 ms held: grants per process fewest/most",
                      fair_text(fair.front()), others(all, fair, fair_text), "",
                      ">= " + fixed(target_fairness, 1), verdict(evenness(fair.front()) >= target_fairness)});
  context.report.note(
      "hand-off = release call begins -> acquire returns in another thread that was already waiting; " +
      grouped(static_cast<int64_t>(turns.handoff_ns.size())) + " hand-offs with turns, " +
      grouped(static_cast<int64_t>(no_turns.handoff_ns.size())) +
      " without; scripts per grant: EVALSHA/EVAL calls over the run (heartbeats and refused attempts "
      "included)");
}

}  // namespace dlock_bench
