// Section 1: one thread, one lock nobody else wants: dlock's acquire+release
// pairs/s against a bare hiredis loop that sends the same two EVALSHA calls
// (the real scripts, the same keys and argument shapes). The two loops run in
// alternating slices, ABBA, so drift in the machine's load hits both alike.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "bare_lock.hpp"
#include "borrowed.hpp"
#include "redis_server.hpp"
#include "sections.hpp"
#include "server_counters.hpp"
#include "server_link.hpp"
#include "stats_cost.hpp"
#include "tls_certificates.hpp"

namespace dlock_bench {
namespace {

constexpr int rounds = 16;
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
  void add(const Throughput& other) {
    pairs += other.pairs;
    ns += other.ns;
  }
};

Throughput bare_run_for(BareLock& lock, int64_t ns) {
  Throughput done;
  const int64_t start = monotonic_ns();
  do {
    if (!lock.try_acquire().granted) throw std::runtime_error("reference acquire: not granted");
    lock.release();
    ++done.pairs;
    done.ns = monotonic_ns() - start;
  } while (done.ns < ns);
  return done;
}

Throughput dlock_run_for(dlock_lock* lock, int64_t lease_ms, int64_t ns) {
  Throughput done;
  const int64_t start = monotonic_ns();
  do {
    require_ok(dlock_lock_acquire(lock, 0, lease_ms, nullptr), "dlock_lock_acquire");
    require_ok(dlock_lock_release(lock), "dlock_lock_release");
    ++done.pairs;
    done.ns = monotonic_ns() - start;
  } while (done.ns < ns);
  return done;
}

// Returns the time of one dlock acquire+release pair.
int64_t compare(const BenchContext& context, const std::string& figure, int64_t lease_ms) {
  const ClientHandle client = open_client(context.url);
  const LockHandle lock = new_lock(client.get(), "bench:pair:core");
  BareLock bare(context.server, "bench:pair:bare", lease_ms < 0 ? default_watchdog_lease_ms : lease_ms);
  dlock_run_for(lock.get(), lease_ms, warm_up_ns);
  bare_run_for(bare, warm_up_ns);

  RedisConnection link = connect(context.server);
  TrafficMeter meter(link);
  meter.start();
  Throughput dlock_total;
  Throughput bare_total;
  std::vector<double> round_ratios;
  for (int round = 0; round < rounds; ++round) {
    Throughput dlock_slice;
    Throughput bare_slice;
    if (round % 2 == 0) {
      dlock_slice = dlock_run_for(lock.get(), lease_ms, slice_ns);
      bare_slice = bare_run_for(bare, slice_ns);
    } else {
      bare_slice = bare_run_for(bare, slice_ns);
      dlock_slice = dlock_run_for(lock.get(), lease_ms, slice_ns);
    }
    dlock_total.add(dlock_slice);
    bare_total.add(bare_slice);
    round_ratios.push_back(dlock_slice.per_second() / bare_slice.per_second());
  }
  const ServerCounters server = meter.stop();
  // The median of the rounds' ratios: a burst of load from elsewhere on the
  // host spoils one round, not the figure.
  std::sort(round_ratios.begin(), round_ratios.end());
  const double ratio = (round_ratios[rounds / 2 - 1] + round_ratios[rounds / 2]) / 2;
  const double lowest = round_ratios.front();
  const double highest = round_ratios.back();
  context.report.row({figure, grouped(static_cast<int64_t>(dlock_total.per_second())) + "/s",
                      grouped(static_cast<int64_t>(bare_total.per_second())) + "/s bare hiredis",
                      fixed(ratio, 2) + " (rounds " + fixed(lowest, 2) + "-" + fixed(highest, 2) + ")",
                      ">= " + fixed(target_ratio, 2), verdict(ratio >= target_ratio)});
  const int64_t dlock_pair_ns = dlock_total.ns / dlock_total.pairs;
  const int64_t bare_pair_ns = bare_total.ns / bare_total.pairs;
  context.report.note(figure + ", over all rounds: " + duration(dlock_pair_ns) + " per dlock pair, " +
                      duration(bare_pair_ns) + " per bare pair; " + grouped(server.us_per_script()) +
                      " us of server time per script call");
  return dlock_pair_ns;
}

void report_counting_cost(const BenchContext& context, const std::string& pair_figure, int64_t pair_ns) {
  const double counting_ns = stats_counting_ns_per_grant();
  const double share = counting_ns / static_cast<double>(pair_ns);
  context.report.row({"client counters per grant (always on)", fixed(counting_ns, 1) + " ns",
                      duration(pair_ns) + " per pair (" + pair_figure + ")", fixed(share * 100, 3) + "%",
                      "< " + fixed(counting_share_target * 100, 0) + "%",
                      verdict(share < counting_share_target)});
}

// pairs/s of dlock and of the bare loop through `url`, in alternating slices.
struct TransportRun {
  ClientHandle client;
  LockHandle lock;
  BareLock bare;
  Throughput dlock_total;
  Throughput bare_total;

  explicit TransportRun(const std::string& url, const std::string& name)
      : client(open_client(url)),
        lock(new_lock(client.get(), name)),
        bare(config_of(url), name + ":bare", fixed_lease_ms) {
    dlock_run_for(lock.get(), fixed_lease_ms, warm_up_ns);
    bare_run_for(bare, warm_up_ns);
  }
  void slice() {
    dlock_total.add(dlock_run_for(lock.get(), fixed_lease_ms, slice_ns));
    bare_total.add(bare_run_for(bare, slice_ns));
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
                         std::to_string(rounds) + " interleaved rounds of " + duration(slice_ns) +
                         " per loop, fixed lease)");
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
  TransportRun plain("redis://127.0.0.1:" + std::to_string(plain_port), "bench:tls:plain");
  TransportRun tls(server.url() + "?tls_ca=" + certificates.ca(), "bench:tls:tls");
  for (int round = 0; round < rounds; ++round) {
    TransportRun& first = round % 2 == 0 ? plain : tls;
    TransportRun& second = round % 2 == 0 ? tls : plain;
    first.slice();
    second.slice();
  }
  auto row = [&](const std::string& figure, const Throughput& measured, const std::string& what,
                 const Throughput& reference, const std::string& reference_what) {
    context.report.row({figure, grouped(static_cast<int64_t>(measured.per_second())) + "/s " + what,
                        grouped(static_cast<int64_t>(reference.per_second())) + "/s " + reference_what,
                        fixed(measured.per_second() / reference.per_second(), 2), "-", Verdict::info});
  };
  row("dlock pairs/s, TLS vs plain", tls.dlock_total, "over TLS", plain.dlock_total, "plain");
  row("bare hiredis pairs/s, TLS vs plain", tls.bare_total, "over TLS", plain.bare_total, "plain");
  row("dlock vs bare hiredis, both over TLS", tls.dlock_total, "dlock", tls.bare_total, "bare hiredis");
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
      "both loops send EVALSHA acquire.lua {name, counter} {lease, field} then EVALSHA "
      "release.lua {name, channel, latch} {field, latch_ms}; a pair is 2 round trips");
  context.report.note(
      "the counters' cost is measured directly (a grant after a wait: 3 relaxed increments and one "
      "histogram record), since they cannot be switched off; the pairs above include it");
}

}  // namespace dlock_bench
