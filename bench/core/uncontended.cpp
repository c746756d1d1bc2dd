// Section 1: one thread, one lock nobody else wants: dlock's acquire+release
// pairs/s against two bare hiredis loops that send two EVALSHA calls each:
// dlock's own scripts (the same keys and argument shapes), which isolates the
// client's overhead, and Redisson's two RLock scripts, which sets what a pair
// may cost on the server. The three loops run in alternating slices, every
// order in turn, so drift in the machine's load hits all alike.
#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>
#include <vector>

#include "bare_lock.hpp"
#include "bare_redisson_lock.hpp"
#include "borrowed.hpp"
#include "redis_server.hpp"
#include "sections.hpp"
#include "server_counters.hpp"
#include "server_link.hpp"
#include "stats_cost.hpp"
#include "tls_certificates.hpp"

namespace dlock_bench {
namespace {

constexpr int loop_count = 3;
// Each of the 6 orders of the three loops 3 times.
constexpr int rounds = 18;
constexpr int64_t slice_ns = 125000000;
constexpr int64_t warm_up_ns = 100000000;
// The lease the core sends for lease -1 with its default watchdog_timeout_ms.
constexpr int64_t default_watchdog_lease_ms = 30000;
constexpr int64_t fixed_lease_ms = 30000;
constexpr double target_ratio = 0.9;
// The counters are always on: their cost per grant must stay below this share
// of one acquire+release.
constexpr double counting_share_target = 0.01;

struct Throughput {
  int64_t pairs = 0;
  int64_t ns = 0;
  double per_second() const { return static_cast<double>(pairs) * 1e9 / static_cast<double>(ns); }
};

// Runs `pair` until `ns` have passed.
Throughput run_for(const std::function<void()>& pair, int64_t ns) {
  Throughput done;
  const int64_t start = monotonic_ns();
  do {
    pair();
    ++done.pairs;
    done.ns = monotonic_ns() - start;
  } while (done.ns < ns);
  return done;
}

// One of the loops compared: its slices' totals, and the server time its
// scripts took.
struct Loop {
  std::function<void()> pair;
  Throughput total;
  int64_t server_us = 0;
  std::vector<double> slice_rates;

  void run_slice(TrafficMeter& meter) {
    meter.start();
    const Throughput slice = run_for(pair, slice_ns);
    server_us += meter.stop().script_us;
    total.pairs += slice.pairs;
    total.ns += slice.ns;
    slice_rates.push_back(slice.per_second());
  }
  int64_t ns_per_pair() const { return total.ns / total.pairs; }
  double server_us_per_pair() const {
    return static_cast<double>(server_us) / static_cast<double>(total.pairs);
  }
};

// The median of the rounds' ratios of `a` to `b`, with the lowest and the
// highest: a burst of load from elsewhere on the host spoils one round, not
// the figure.
struct Ratio {
  double median, lowest, highest;
};

Ratio ratio(const Loop& a, const Loop& b) {
  std::vector<double> ratios;
  for (std::size_t round = 0; round < a.slice_rates.size(); ++round) {
    ratios.push_back(a.slice_rates[round] / b.slice_rates[round]);
  }
  std::sort(ratios.begin(), ratios.end());
  const std::size_t middle = ratios.size() / 2;
  return {(ratios[middle - 1] + ratios[middle]) / 2, ratios.front(), ratios.back()};
}

void report_ratio(const BenchContext& context, const std::string& figure, const Loop& dlock_loop,
                  const Loop& reference, const std::string& reference_name) {
  const Ratio found = ratio(dlock_loop, reference);
  context.report.row(
      {figure, grouped(static_cast<int64_t>(dlock_loop.total.per_second())) + "/s",
       grouped(static_cast<int64_t>(reference.total.per_second())) + "/s " + reference_name,
       fixed(found.median, 2) + " (rounds " + fixed(found.lowest, 2) + "-" + fixed(found.highest, 2) + ")",
       ">= " + fixed(target_ratio, 2), verdict(found.median >= target_ratio)});
}

std::function<void()> dlock_pair(dlock_lock* lock, int64_t lease_ms) {
  return [lock, lease_ms] {
    require_ok(dlock_lock_acquire(lock, 0, lease_ms, nullptr), "dlock_lock_acquire");
    require_ok(dlock_lock_release(lock), "dlock_lock_release");
  };
}

std::function<void()> bare_pair(BareLock& bare) {
  return [&bare] {
    if (!bare.try_acquire().granted) throw std::runtime_error("reference acquire: not granted");
    bare.release();
  };
}

// Returns the time of one dlock acquire+release pair.
int64_t compare(const BenchContext& context, const std::string& figure, int64_t lease_ms) {
  const ClientHandle client = open_client(context.url);
  const LockHandle lock = new_lock(client.get(), "bench:pair:core");
  const int64_t sent_lease_ms = lease_ms < 0 ? default_watchdog_lease_ms : lease_ms;
  BareLock bare(context.server, "bench:pair:bare", sent_lease_ms);
  BareRedissonLock redisson(context.server, "bench:pair:redisson", sent_lease_ms);

  std::array<Loop, loop_count> loops;
  Loop& dlock_loop = loops[0];
  Loop& bare_loop = loops[1];
  Loop& redisson_loop = loops[2];
  dlock_loop.pair = dlock_pair(lock.get(), lease_ms);
  bare_loop.pair = bare_pair(bare);
  redisson_loop.pair = [&] {
    redisson.acquire();
    redisson.release();
  };
  for (Loop& loop : loops) run_for(loop.pair, warm_up_ns);

  RedisConnection link = connect(context.server);
  TrafficMeter meter(link);
  std::array<int, loop_count> order = {0, 1, 2};
  for (int round = 0; round < rounds; ++round) {
    for (int index : order) loops[index].run_slice(meter);
    if (!std::next_permutation(order.begin(), order.end())) std::sort(order.begin(), order.end());
  }

  report_ratio(context, figure, dlock_loop, bare_loop, "bare, dlock's scripts");
  report_ratio(context, "  against Redisson's scripts", dlock_loop, redisson_loop, "bare, Redisson's");
  const Ratio scripts = ratio(bare_loop, redisson_loop);
  context.report.note(figure + ", over all rounds: " + duration(dlock_loop.ns_per_pair()) +
                      " per dlock pair, " + duration(bare_loop.ns_per_pair()) +
                      " per bare pair of dlock's scripts, " + duration(redisson_loop.ns_per_pair()) +
                      " of Redisson's; server time per pair " + fixed(dlock_loop.server_us_per_pair(), 1) +
                      " / " + fixed(bare_loop.server_us_per_pair(), 1) + " / " +
                      fixed(redisson_loop.server_us_per_pair(), 1) +
                      " us; bare dlock scripts / bare Redisson scripts " + fixed(scripts.median, 2));
  return dlock_loop.ns_per_pair();
}

void report_counting_cost(const BenchContext& context, const std::string& pair_figure, int64_t pair_ns) {
  const double counting_ns = stats_counting_ns_per_grant();
  const double share = counting_ns / static_cast<double>(pair_ns);
  context.report.row({"client counters per grant (always on)", fixed(counting_ns, 1) + " ns",
                      duration(pair_ns) + " per pair (" + pair_figure + ")", fixed(share * 100, 3) + "%",
                      "< " + fixed(counting_share_target * 100, 0) + "%",
                      verdict(share < counting_share_target)});
}

// dlock's loop and the bare loop through one URL (plain or TLS).
struct TransportLoops {
  ClientHandle client;
  LockHandle lock;
  BareLock bare;
  Loop dlock_loop;
  Loop bare_loop;

  TransportLoops(const std::string& url, const std::string& name)
      : client(open_client(url)),
        lock(new_lock(client.get(), name)),
        bare(config_of(url), name + ":bare", fixed_lease_ms) {
    dlock_loop.pair = dlock_pair(lock.get(), fixed_lease_ms);
    bare_loop.pair = bare_pair(bare);
    run_for(dlock_loop.pair, warm_up_ns);
    run_for(bare_loop.pair, warm_up_ns);
  }
  static dlock::ClientConfig config_of(const std::string& url) {
    dlock::ClientConfig config;
    dlock::apply_url(url, config);
    return config;
  }
};

}  // namespace

void bench_uncontended_tls(const BenchContext& context) {
  context.report.section("7. Uncontended acquire+release over TLS and plain text, same server (" +
                         std::to_string(rounds) + " rounds of " + duration(slice_ns) +
                         " per loop, each loop leading in turn; fixed lease; ratio = median of the rounds')");
  if (!dlock_test::build_has_tls()) {
    context.report.note("skipped: this build has no TLS (hiredis without hiredis_ssl)");
    return;
  }
  // A server of its own, listening on a plain port and a TLS port.
  const dlock_test::TlsCertificates certificates;
  dlock_test::RedisServerConfig config;
  config.tls.emplace();
  config.tls->cert_file = certificates.server_cert();
  config.tls->key_file = certificates.server_key();
  config.tls->ca_file = certificates.ca();
  const int plain_port = dlock_test::pick_free_port();
  config.extra_lines.push_back("port " + std::to_string(plain_port));
  dlock_test::RedisServer server(config);
  TransportLoops plain("redis://127.0.0.1:" + std::to_string(plain_port), "bench:tls:plain");
  TransportLoops tls(server.url() + "?tls_ca=" + certificates.ca(), "bench:tls:tls");
  RedisConnection link = connect(TransportLoops::config_of(server.url() + "?tls_ca=" + certificates.ca()));
  TrafficMeter meter(link);
  std::array<Loop*, 4> loops = {&plain.dlock_loop, &tls.dlock_loop, &plain.bare_loop, &tls.bare_loop};
  for (int round = 0; round < rounds; ++round) {
    for (Loop* loop : loops) loop->run_slice(meter);
    std::rotate(loops.begin(), loops.begin() + 1, loops.end());  // each loop leads in turn
  }
  auto row = [&](const std::string& figure, const Loop& measured, const std::string& what,
                 const Loop& reference, const std::string& reference_what) {
    const Ratio found = ratio(measured, reference);
    context.report.row(
        {figure, grouped(static_cast<int64_t>(measured.total.per_second())) + "/s " + what,
         grouped(static_cast<int64_t>(reference.total.per_second())) + "/s " + reference_what,
         fixed(found.median, 2) + " (rounds " + fixed(found.lowest, 2) + "-" + fixed(found.highest, 2) + ")",
         "-", Verdict::info});
  };
  row("dlock pairs/s, TLS vs plain", tls.dlock_loop, "over TLS", plain.dlock_loop, "plain");
  row("bare hiredis pairs/s, TLS vs plain", tls.bare_loop, "over TLS", plain.bare_loop, "plain");
  row("dlock vs bare hiredis, both over TLS", tls.dlock_loop, "dlock", tls.bare_loop, "bare hiredis");
  context.report.note(
      "TLS 1.3 with an EC P-256 certificate on loopback; connections are pooled, so the "
      "handshake is paid once per connection, not per pair");
}

void bench_uncontended(const BenchContext& context) {
  context.report.section("1. Uncontended acquire+release, one thread (" + std::to_string(rounds) +
                         " interleaved rounds of " + duration(slice_ns) +
                         " per loop; ratio = median of the rounds' ratios)");
  const int64_t pair_ns = compare(context, "pairs/s, watchdog lease (-1)", -1);
  compare(context, "pairs/s, fixed lease (30000 ms)", fixed_lease_ms);
  report_counting_cost(context, "watchdog lease", pair_ns);
  context.report.note(
      "the dlock's-scripts loop sends EVALSHA acquire.lua {name, counter, latch, turn, waiting} {lease, "
      "field, "
      "request} "
      "then EVALSHA release.lua {name, channel, latch, turn, waiting} {field, latch_ms, request, yield_ms}; "
      "the "
      "Redisson "
      "loop sends its "
      "tryLockInnerAsync script {name} {lease, field} then its unlockInnerAsync script {name, channel, "
      "latch} "
      "{0, lease, field, publish, latch_ms} (bench/core/redisson_*.lua; without the DEL of the latch "
      "Redisson sends after each unlock, and without replica sync); a pair is 2 round trips");
  context.report.note(
      "the counters' cost is measured directly (a grant after a wait: 3 relaxed increments and one "
      "histogram record), since they cannot be switched off; the pairs above include it");
}

}  // namespace dlock_bench
