// The benchmark's sections, each adding its rows and notes to the report.
#pragma once

#include <cstdint>
#include <string>

#include "backends/redis/net/url.hpp"
#include "report.hpp"

namespace dlock_bench {

struct BenchContext {
  std::string url;             // what dlock_client_open() gets
  dlock::ClientConfig server;  // the same server, for hiredis
  int64_t round_trip_ns;       // median PING round trip, the unit of latency
  // Median PING round trip of a client that slept 1 ms before each (as
  // redis-cli --latency samples): printed beside the unit, because on a
  // virtual machine the two differ, either way, by up to 10x from day to day.
  int64_t idle_round_trip_ns;
  Report& report;
  std::string baseline_library;  // --baseline-lib: an earlier build's libdlock.so, or empty
};

// `ns` in the context's PING round trips: "2.3 RT".
inline std::string as_round_trips(const BenchContext& context, int64_t ns) {
  return fixed(static_cast<double>(ns) / static_cast<double>(context.round_trip_ns), 1) + " RT";
}

// "43.1 us = 2.3 RT".
inline std::string duration_in_round_trips(const BenchContext& context, int64_t ns) {
  return duration(ns) + " = " + as_round_trips(context, ns);
}

// 1. Uncontended acquire+release pairs/s, dlock against bare hiredis loops
//    of the same two EVALSHA calls and of Redisson's two RLock scripts, with
//    a watchdog lease and a fixed one.
void bench_uncontended(const BenchContext& context);
// 2. A re-entrant acquire+release by the holder: its cost, and no round trip.
void bench_reentrant(const BenchContext& context);
// 3. Release -> next waiter's grant across processes, p50/p99.
void bench_handoff(const BenchContext& context);
// 4. Commands and round trips per renewal period with 1,000 held locks.
void bench_watchdog_cost(const BenchContext& context);
// 5. Memory per lock handle and threads per client.
void bench_footprint(const BenchContext& context);
// 6. Asynchronous acquire/release against the blocking calls.
void bench_async_paths(const BenchContext& context);
// 7. Uncontended acquire+release over TLS against plain text on one server,
//    dlock and the bare hiredis loop (builds with TLS; a server of its own).
void bench_uncontended_tls(const BenchContext& context);
// 8. Sentinel: SENTINEL FAILOVER -> the first grant on the new master, p50
//    and max over 10 failovers, without and with sync_replicas=1 (a cluster
//    of its own: master, 2 replicas, 3 sentinels).
void bench_sentinel_failover(const BenchContext& context);
// 9. The fair lock's hand-off with 1, 10 and 1,000 waiters, in round trips,
//    and the Redis commands per grant.
void bench_fair_handoff(const BenchContext& context);
// 10. Redis Cluster (3 masters, 3 replicas, started here) against the
//     standalone server: uncontended pairs/s, the hand-off between two
//     clients, and renewal round trips per period for 10,000 held locks.
void bench_cluster(const BenchContext& context);
// 11. The reentrant lock's hand-off under contention (4 processes x 4
//     threads) with and without the waiters' turns, and a baseline build's:
//     grants/s, hand-off p50/p99, scripts per grant from 2 to 64 waiters,
//     and the 8-process fairness.
void bench_lock_turns(const BenchContext& context);
// 12. Leader election against the lock recipe (candidates blocked in
//     dlock_lock_acquire, the leader resigning with dlock_lock_release), 3
//     candidate processes: resign -> new leader p50/p99, kill -9 of the
//     leader -> new leader with a 1 s lease, reading who leads, and an
//     observer's delay after each grant.
void bench_election(const BenchContext& context);

}  // namespace dlock_bench
