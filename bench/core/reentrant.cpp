// Section 2: the holder acquires and releases again and again: counted in
// the client, so each pair must cost no round trip. The server's command
// counter over the loop checks it.
#include "borrowed.hpp"
#include "sections.hpp"
#include "server_counters.hpp"
#include "server_link.hpp"

namespace dlock_bench {
namespace {

constexpr int64_t measure_ns = 300000000;

}  // namespace

void bench_reentrant(const BenchContext& context) {
  context.report.section("2. Re-entrant acquire+release by the holder");
  RedisConnection link = connect(context.server);
  TrafficMeter meter(link);
  const ClientHandle client = open_client(context.url);
  const LockHandle lock = new_lock(client.get(), "bench:reentrant");
  require_ok(dlock_lock_acquire(lock.get(), 0, -1, nullptr), "dlock_lock_acquire");

  meter.start();
  int64_t pairs = 0;
  const int64_t start = monotonic_ns();
  int64_t elapsed = 0;
  do {
    require_ok(dlock_lock_acquire(lock.get(), 0, -1, nullptr), "dlock_lock_acquire (re-entrant)");
    require_ok(dlock_lock_release(lock.get()), "dlock_lock_release (re-entrant)");
    ++pairs;
    elapsed = monotonic_ns() - start;
  } while (elapsed < measure_ns);
  const ServerCounters sent = meter.stop();
  require_ok(dlock_lock_release(lock.get()), "dlock_lock_release");

  const int64_t pair_ns = elapsed / pairs;
  context.report.row(
      {"ns per re-entrant pair", duration(pair_ns), duration(context.round_trip_ns) + " = 1 PING round trip",
       fixed(static_cast<double>(pair_ns) / static_cast<double>(context.round_trip_ns), 4) + " RT",
       "no round trip", verdict(sent.commands == 0)});
  context.report.note(grouped(pairs) +
                      " pairs; commands the server received meanwhile: " + grouped(sent.commands));
}

}  // namespace dlock_bench
