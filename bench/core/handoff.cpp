// Section 3: contended hand-off across processes (handoff_harness.hpp): worker
// processes loop acquire(wait forever) / hold 1 ms / release on one lock, and
// each release is paired with the next grant. The same run with a bare
// hiredis pub/sub waiter (bare_blocking_lock.hpp) is the reference; the two
// alternate ABBA.
#include <memory>
#include <stdexcept>
#include <vector>

#include "bare_blocking_lock.hpp"
#include "borrowed.hpp"
#include "handoff_harness.hpp"
#include "percentile.hpp"
#include "sections.hpp"
#include "server_counters.hpp"
#include "server_link.hpp"
#include "wakeup_latency.hpp"

namespace dlock_bench {
namespace {

constexpr int workers = 4;
constexpr int32_t grants_per_run = 500;
constexpr int64_t lease_ms = 30000;  // the bare waiter's; dlock uses its watchdog's default, the same
constexpr double target_p50_round_trips = 3.0;
constexpr int wakeup_samples = 500;
const char* const lock_name = "bench:handoff";

class BareContender : public Contender {
 public:
  explicit BareContender(const dlock::ClientConfig& server) : lock_(server, lock_name, lease_ms) {}
  uint64_t acquire() override { return lock_.acquire(); }
  void release() override { lock_.release(); }

 private:
  BareBlockingLock lock_;
};

std::vector<Grant> run(const BenchContext& context, bool bare) {
  const ContenderFactory make = [&](int) -> std::unique_ptr<Contender> {
    if (bare) return std::make_unique<BareContender>(context.server);
    return std::make_unique<LockContender>(context.url, lock_name);
  };
  return run_handoffs({workers, grants_per_run, make, bare ? "bare hand-off" : "dlock hand-off", nullptr});
}

}  // namespace

void bench_handoff(const BenchContext& context) {
  context.report.section("3. Contended hand-off, " + std::to_string(workers) + " processes on one lock, " +
                         "runs of " + grouped(grants_per_run) + " grants, ABBA");
  RedisConnection link = connect(context.server);
  TrafficMeter meter(link);
  meter.start();
  // The grants of the runs, kept for the analyses' pointers.
  std::vector<std::vector<Grant>> runs;
  HandoffAnalysis dlock;
  HandoffAnalysis bare;
  for (const bool run_bare : {false, true, true, false}) {
    runs.push_back(run(context, run_bare));
    (run_bare ? bare : dlock).add(runs.back());
  }
  const ServerCounters server = meter.stop();

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
  context.report.row({"hand-off p50", duration_in_round_trips(context, p50),
                      duration_in_round_trips(context, bare_p50) + " bare pub/sub", ratio(p50, bare_p50),
                      "<= " + fixed(target_p50_round_trips, 0) + " RT",
                      verdict(static_cast<double>(p50) <=
                              target_p50_round_trips * static_cast<double>(context.round_trip_ns))});
  context.report.row({"hand-off p99", duration_in_round_trips(context, p99),
                      duration_in_round_trips(context, bare_p99) + " bare pub/sub", ratio(p99, bare_p99),
                      "no polling interval", Verdict::info});
  const auto wakeup = [&](bool cross_cpu) {
    const int64_t ns = process_wakeup_ns(wakeup_samples, cross_cpu);
    return duration_in_round_trips(context, ns);
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
