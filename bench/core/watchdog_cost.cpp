// Section 4: the watchdog's cost with many held locks. One client with a
// short watchdog lease holds N distinct locks (N = 100, then 1,000); over
// several renewal periods we count what the server ran (INFO deltas) and the
// read(2) and write(2) calls of the client's background threads
// (/proc/self/task/*/io). A round trip takes at least one write of its
// requests and one read of its replies, and with no waiter the only
// background thread talking to Redis is the watchdog, so the smaller of the
// two counts bounds the watchdog's round trips from above.
#include <algorithm>
#include <thread>

#include "borrowed.hpp"
#include "held_locks.hpp"
#include "proc_threads.hpp"
#include "sections.hpp"
#include "server_counters.hpp"
#include "server_link.hpp"

namespace dlock_bench {
namespace {

constexpr int lock_counts[] = {100, 1000};
constexpr int64_t watchdog_timeout_ms = 3000;
constexpr int64_t renewal_period_ms = watchdog_timeout_ms / 3;  // the core renews every third of the lease
constexpr int periods = 3;
constexpr double target_round_trips_per_period = 4;  // a small constant, whatever N

struct WatchdogTraffic {
  ServerCounters server;
  SyscallCounts client;
  int still_held = 0;
};

WatchdogTraffic measure(const BenchContext& context, int held_locks) {
  RedisConnection link = connect(context.server);
  TrafficMeter meter(link);
  const std::set<int> threads_before = thread_ids();
  const ClientHandle client = open_client(context.url, options_with_watchdog(watchdog_timeout_ms));
  HeldLocks locks(client.get(), "bench:watchdog:", held_locks);
  std::set<int> background;
  for (const int id : thread_ids()) {
    if (threads_before.count(id) == 0) background.insert(id);
  }
  // Start between two renewals, so the window holds exactly `periods` of
  // them, and after the first (which also loads the renewal script).
  std::this_thread::sleep_for(std::chrono::milliseconds(renewal_period_ms * 3 / 2));
  const SyscallCounts client_start = syscalls_of(background);
  meter.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(renewal_period_ms * periods));
  WatchdogTraffic traffic;
  traffic.server = meter.stop();
  const SyscallCounts client_end = syscalls_of(background);
  traffic.client.reads = client_end.reads - client_start.reads;
  traffic.client.writes = client_end.writes - client_start.writes;
  traffic.still_held = locks.still_held();
  locks.release_all();
  return traffic;
}

std::string per_period(int64_t count) {
  return fixed(static_cast<double>(count) / periods, 1);
}

}  // namespace

void bench_watchdog_cost(const BenchContext& context) {
  context.report.section("4. Watchdog cost, watchdog lease " + grouped(watchdog_timeout_ms) +
                         " ms (renewal period " + grouped(renewal_period_ms) + " ms), " +
                         std::to_string(periods) + " periods per figure");
  for (const int held_locks : lock_counts) {
    const WatchdogTraffic traffic = measure(context, held_locks);
    const int64_t round_trips = std::min(traffic.client.reads, traffic.client.writes);
    context.report.row(
        {"round trips/period, " + grouped(held_locks) + " locks", "<= " + per_period(round_trips),
         per_period(traffic.server.scripts) + " renewal scripts", "", "O(1), not " + grouped(held_locks),
         verdict(static_cast<double>(round_trips) / periods <= target_round_trips_per_period &&
                 traffic.still_held == held_locks)});
    context.report.note(grouped(held_locks) + " locks, per period: watchdog read(2) " +
                        per_period(traffic.client.reads) + ", write(2) " + per_period(traffic.client.writes) +
                        "; server: " + per_period(traffic.server.scripts) + " EVALSHA/EVAL, " +
                        per_period(traffic.server.commands) + " commands, " +
                        per_period(traffic.server.reads) + " read and " + per_period(traffic.server.writes) +
                        " write events; " + grouped(traffic.still_held) + " locks still held after " +
                        grouped(renewal_period_ms * periods + renewal_period_ms * 3 / 2) + " ms");
  }
  context.report.note(
      "round trips <= min(read(2), write(2)) of the client's background threads (only the "
      "watchdog talks to Redis: no waiter); replies to one pipeline may take several reads");
}

}  // namespace dlock_bench
