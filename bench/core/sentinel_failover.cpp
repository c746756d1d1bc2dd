// 8. Sentinel: from SENTINEL FAILOVER to the first grant on the new master,
//    without replica sync and with sync_replicas=1, side by side.
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "dlock.h"
#include "dlock_handles.hpp"
#include "monotonic_clock.hpp"
#include "percentile.hpp"
#include "sections.hpp"
#include "sentinel_cluster.hpp"

namespace dlock_bench {
namespace {

constexpr int failovers_per_mode = 10;

uint64_t failovers_of(dlock_client* client) {
  dlock_client_stats stats{};
  stats.size = sizeof stats;
  dlock_test::require_ok(dlock_client_stats_get(client, &stats), "stats");
  return stats.failovers;
}

// SENTINEL FAILOVER through sentinel `index`, asked until it accepts (the
// previous failover may still be settling); returns when it was accepted.
int64_t ask_failover(dlock_test::SentinelCluster& cluster, std::size_t index) {
  while (cluster.sentinel_command(index, {"SENTINEL", "FAILOVER", dlock_test::SentinelCluster::master_name})
             .is_error()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return dlock_test::monotonic_ns();
}

// Milliseconds from the accepted SENTINEL FAILOVER to the first grant made
// after the client moved, for each of `failovers_per_mode` failovers. A
// failover the sentinels abort (no master moves within 10 s) is asked again,
// of the next sentinel, and timed from then.
std::vector<int64_t> time_failovers(dlock_test::SentinelCluster& cluster, const std::string& query) {
  const dlock_test::ClientHandle client = dlock_test::open_client(cluster.url(query));
  const dlock_test::LockHandle lock = dlock_test::new_lock(client.get(), "bench-failover");
  std::vector<int64_t> samples;
  for (int round = 0; round < failovers_per_mode; ++round) {
    cluster.await_healthy(std::chrono::seconds(30));
    const uint64_t moves_before = failovers_of(client.get());
    std::size_t asked = 0;
    int64_t asked_ns = ask_failover(cluster, asked);
    for (;;) {
      const int status = dlock_lock_acquire(lock.get(), 0, 5000, nullptr);
      if (status == DLOCK_OK) {
        const bool moved = failovers_of(client.get()) > moves_before;
        dlock_lock_release(lock.get());
        if (moved) break;
      }
      // Aborted: another sentinel, whose view of the replicas was stale, turned the
      // promoted one back. Another leader is asked.
      if (dlock_test::ms_between(asked_ns, dlock_test::monotonic_ns()) > 10000) {
        asked_ns = ask_failover(cluster, ++asked % cluster.sentinel_ports().size());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    samples.push_back(dlock_test::ms_between(asked_ns, dlock_test::monotonic_ns()));
  }
  return samples;
}

std::string ms(int64_t value) {
  return std::to_string(value) + " ms";
}

}  // namespace

void bench_sentinel_failover(const BenchContext& context) {
  Report& report = context.report;
  report.section("8. Sentinel failover -> first grant on the new master (" +
                 std::to_string(failovers_per_mode) + " failovers each)");
  dlock_test::SentinelCluster cluster;
  const std::vector<int64_t> plain = time_failovers(cluster, "");
  const std::vector<int64_t> synced = time_failovers(cluster, "?sync_replicas=1&sync_timeout_ms=250");
  report.row({"p50, sync_replicas=0 | =1", ms(percentile(plain, 50)), ms(percentile(synced, 50)), "", "",
              Verdict::info});
  report.row({"max, sync_replicas=0 | =1", ms(percentile(plain, 100)), ms(percentile(synced, 100)), "", "",
              Verdict::info});
  report.note(
      "A master, 2 replicas and 3 sentinels on loopback (down-after 1000 ms). Timed from the "
      "accepted SENTINEL FAILOVER to the first grant after the client moved; attempts every 1 ms. "
      "The dlock column is without replica sync, the reference column with sync_replicas=1 "
      "(a grant waits until a replica of the new master confirms it).");
}

}  // namespace dlock_bench
