// Section 4: the watchdog's cost with many held locks. One client with a
// short watchdog lease holds N distinct locks (N = 100, then 1,000); over
// several renewal periods we count the client's renewal pipelines
// (dlock_client_stats.renewal_round_trips) and, on the server, the scripts it
// ran and its read and write events (INFO deltas, less the meter's own
// probes): with no waiter only the watchdog talks to it, and a pipeline
// costs at least one read (more when it is larger than the server's buffer).
#include <thread>

#include "borrowed.hpp"
#include "held_locks.hpp"
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
  uint64_t round_trips = 0;  // the client's renewal pipelines
  int still_held = 0;
};

WatchdogTraffic measure(const BenchContext& context, int held_locks) {
  RedisConnection link = connect(context.server);
  TrafficMeter meter(link);
  const ClientHandle client = open_client(context.url, options_with_watchdog(watchdog_timeout_ms));
  HeldLocks locks(client.get(), "bench:watchdog:", held_locks);
  // Start between two renewals, so the window holds exactly `periods` of
  // them, and after the first (which also loads the renewal script).
  std::this_thread::sleep_for(std::chrono::milliseconds(renewal_period_ms * 3 / 2));
  const uint64_t round_trips_before = stats_of(client.get()).renewal_round_trips;
  meter.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(renewal_period_ms * periods));
  WatchdogTraffic traffic;
  traffic.server = meter.stop();
  traffic.round_trips = stats_of(client.get()).renewal_round_trips - round_trips_before;
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
    const auto round_trips = static_cast<int64_t>(traffic.round_trips);
    context.report.row({"round trips/period, " + grouped(held_locks) + " locks", per_period(round_trips),
                        per_period(traffic.server.scripts) + " renewal scripts", "",
                        "O(1), not " + grouped(held_locks),
                        verdict(static_cast<double>(round_trips) / periods <= target_round_trips_per_period &&
                                traffic.still_held == held_locks)});
    context.report.note(grouped(held_locks) +
                        " locks, per period, on the server: " + per_period(traffic.server.scripts) +
                        " EVALSHA/EVAL, " + per_period(traffic.server.commands) + " commands, " +
                        per_period(traffic.server.reads) + " read and " + per_period(traffic.server.writes) +
                        " write events; " + grouped(traffic.still_held) + " locks still held after " +
                        grouped(renewal_period_ms * periods + renewal_period_ms * 3 / 2) + " ms");
  }
  context.report.note(
      "round trips: the client's renewal pipelines; the server's read events bound them from above "
      "(only the watchdog talks to it: no waiter), and a large pipeline takes several reads");
}

}  // namespace dlock_bench
