// Section 10: Redis Cluster against a standalone node, side by side in one
// run: uncontended pairs/s, the hand-off between two clients, and what the
// watchdog costs with 10,000 held locks. The cluster (3 masters, 3 replicas)
// is the tests' fixture; the standalone node is the benchmark's own server.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "borrowed.hpp"
#include "held_locks.hpp"
#include "percentile.hpp"
#include "redis_cluster.hpp"
#include "sections.hpp"
#include "server_counters.hpp"
#include "server_link.hpp"

namespace dlock_bench {
namespace {

constexpr int pair_rounds = 200;  // ABBA: each deployment leads in turn
constexpr int64_t pair_slice_ns = 15000000;
constexpr int handoffs_per_name = 150;
// Long enough for the waiter to have found the lock taken and to sleep on its channel.
constexpr auto waiter_settle = std::chrono::milliseconds(2);
constexpr int held_locks = 10000;
constexpr int64_t watchdog_timeout_ms = 6000;
constexpr int64_t renewal_period_ms = watchdog_timeout_ms / 3;  // the core renews every third of the lease
constexpr int periods = 3;
constexpr std::chrono::milliseconds node_timeout(2000);

// One deployment under test: its URL, how the benchmark reaches its masters
// (to read their counters), and one lock name on each master.
struct Deployment {
  std::string url;
  std::size_t masters;
  std::function<std::vector<RedisConnection>()> connect_masters;
  std::vector<std::string> names;  // one per master
};

std::string ratio_text(double value) {
  return fixed(value, 2) + "x";
}

// ---- uncontended pairs/s ----

// One client acquiring and releasing one lock per master in turn; each pair's
// time is kept, since on a loaded host a median resists the stalls that
// spoil a throughput slice.
struct PairLoop {
  ClientHandle client;
  std::vector<LockHandle> locks;
  int64_t ns = 0;
  std::vector<int64_t> pair_ns;

  explicit PairLoop(const Deployment& deployment) : client(open_client(deployment.url)) {
    for (const std::string& name : deployment.names) locks.push_back(new_lock(client.get(), name));
  }
  // Opens the connections and loads the scripts on every master, then forgets the slice.
  void warm_up() {
    run_slice();
    ns = 0;
    pair_ns.clear();
  }
  void run_slice() {
    const int64_t start = monotonic_ns();
    int64_t now = start;
    do {
      dlock_lock* lock = locks[pair_ns.size() % locks.size()].get();
      const int64_t began = now;
      require_ok(dlock_lock_acquire(lock, 0, -1, nullptr), "dlock_lock_acquire");
      require_ok(dlock_lock_release(lock), "dlock_lock_release");
      now = monotonic_ns();
      pair_ns.push_back(now - began);
    } while (now - start < pair_slice_ns);
    ns += now - start;
  }
  double per_second() const { return static_cast<double>(pair_ns.size()) * 1e9 / static_cast<double>(ns); }
  double median_per_second() const { return 1e9 / static_cast<double>(percentile(pair_ns, 50)); }
};

void compare_pairs(Report& report, const Deployment& cluster, const Deployment& standalone) {
  PairLoop on_cluster(cluster);
  PairLoop on_standalone(standalone);
  on_cluster.warm_up();
  on_standalone.warm_up();
  for (int round = 0; round < pair_rounds; ++round) {
    (round % 2 == 0 ? on_cluster : on_standalone).run_slice();
    (round % 2 == 0 ? on_standalone : on_cluster).run_slice();
  }
  report.row({"uncontended pairs/s, watchdog lease (from the median pair)",
              grouped(static_cast<int64_t>(on_cluster.median_per_second())) + "/s cluster",
              grouped(static_cast<int64_t>(on_standalone.median_per_second())) + "/s standalone",
              ratio_text(on_cluster.median_per_second() / on_standalone.median_per_second()), "-",
              Verdict::info});
  report.row({"  over the whole time", grouped(static_cast<int64_t>(on_cluster.per_second())) + "/s cluster",
              grouped(static_cast<int64_t>(on_standalone.per_second())) + "/s standalone",
              ratio_text(on_cluster.per_second() / on_standalone.per_second()), "-", Verdict::info});
  report.note(
      "pairs: one thread, one client per deployment, the three names in turn (one per master; the same "
      "names on the standalone node), " +
      std::to_string(pair_rounds) + " alternating slices of " + duration(pair_slice_ns) +
      " each; p99 of a pair " + duration(percentile(on_cluster.pair_ns, 99)) + " cluster, " +
      duration(percentile(on_standalone.pair_ns, 99)) +
      " standalone; every write on the cluster is also replicated to a replica on this host");
}

// ---- hand-off between two clients ----

// A thread on its own client that, on each go(), acquires (waiting) and
// releases at once, stamping when the grant returned.
class Waiter {
 public:
  Waiter(const std::string& url, const std::string& name)
      : client_(open_client(url)), lock_(new_lock(client_.get(), name)), thread_([this] { loop(); }) {}
  ~Waiter() {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  void go() {
    std::lock_guard<std::mutex> guard(mutex_);
    ++asked_;
    changed_.notify_all();
  }
  // The time the grant returned, once the waiter has released again.
  int64_t await_round() {
    std::unique_lock<std::mutex> guard(mutex_);
    changed_.wait(guard, [this] { return done_ == asked_ || !error_.empty(); });
    if (!error_.empty()) throw std::runtime_error("hand-off waiter: " + error_);
    return granted_ns_;
  }
  uint64_t handoffs() const { return stats_of(client_.get()).handoffs; }

 private:
  void loop() {
    for (;;) {
      {
        std::unique_lock<std::mutex> guard(mutex_);
        changed_.wait(guard, [this] { return stopping_ || done_ < asked_; });
        if (stopping_) return;
      }
      int64_t granted_ns = 0;
      std::string error;
      try {
        require_ok(dlock_lock_acquire(lock_.get(), -1, -1, nullptr), "dlock_lock_acquire");
        granted_ns = monotonic_ns();
        require_ok(dlock_lock_release(lock_.get()), "dlock_lock_release");
      } catch (const std::exception& failure) {
        error = failure.what();
      }
      std::lock_guard<std::mutex> guard(mutex_);
      granted_ns_ = granted_ns;
      error_ = error;
      ++done_;
      changed_.notify_all();
    }
  }

  ClientHandle client_;
  LockHandle lock_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int64_t asked_ = 0;
  int64_t done_ = 0;
  int64_t granted_ns_ = 0;
  bool stopping_ = false;
  std::string error_;
  std::thread thread_;  // last: starts once the members it uses exist
};

struct Handoffs {
  std::vector<int64_t> ns;  // release call begins -> the waiting client's acquire returns
  int64_t not_woken = 0;    // rounds whose waiter had not yet waited (left out)
  int64_t spublish = 0;     // SPUBLISH calls on the masters meanwhile (from the release scripts)
  int64_t ssubscribe = 0;   // SSUBSCRIBE calls
};

// SPUBLISH and SSUBSCRIBE calls so far, summed over the masters.
std::pair<int64_t, int64_t> sharded_pubsub_calls(std::vector<RedisConnection>& masters) {
  std::pair<int64_t, int64_t> calls{0, 0};
  for (RedisConnection& master : masters) {
    const InfoFields commandstats = info(master, "commandstats");
    calls.first += command_calls(commandstats, "spublish");
    calls.second += command_calls(commandstats, "ssubscribe");
  }
  return calls;
}

// The holder's client releases; a waiter on another client, sleeping on the
// lock's channel, gets it. For each name (one per master), `handoffs_per_name` rounds.
Handoffs measure_handoffs(const Deployment& deployment) {
  Handoffs found;
  std::vector<RedisConnection> masters = deployment.connect_masters();
  const auto calls_before = sharded_pubsub_calls(masters);
  const ClientHandle holder = open_client(deployment.url);
  for (const std::string& name : deployment.names) {
    const LockHandle lock = new_lock(holder.get(), name);
    Waiter waiter(deployment.url, name);
    for (int round = 0; round < handoffs_per_name; ++round) {
      require_ok(dlock_lock_acquire(lock.get(), -1, -1, nullptr), "dlock_lock_acquire");
      const uint64_t woken_before = waiter.handoffs();
      waiter.go();
      std::this_thread::sleep_for(waiter_settle);
      const int64_t releasing_ns = monotonic_ns();
      require_ok(dlock_lock_release(lock.get()), "dlock_lock_release");
      const int64_t granted_ns = waiter.await_round();
      // A round counts only when the grant followed a release message.
      if (waiter.handoffs() > woken_before && round > 0) {
        found.ns.push_back(granted_ns - releasing_ns);
      } else {
        ++found.not_woken;
      }
    }
  }
  const auto calls_after = sharded_pubsub_calls(masters);
  found.spublish = calls_after.first - calls_before.first;
  found.ssubscribe = calls_after.second - calls_before.second;
  return found;
}

void compare_handoffs(const BenchContext& context, const Deployment& cluster, const Deployment& standalone) {
  const Handoffs on_cluster = measure_handoffs(cluster);
  const Handoffs on_standalone = measure_handoffs(standalone);
  for (const double p : {50.0, 99.0}) {
    const int64_t ours = percentile(on_cluster.ns, p);
    const int64_t theirs = percentile(on_standalone.ns, p);
    context.report.row({"hand-off p" + fixed(p, 0) + ", two clients", duration_in_round_trips(context, ours),
                        duration_in_round_trips(context, theirs) + " standalone",
                        ratio_text(static_cast<double>(ours) / static_cast<double>(theirs)), "-",
                        Verdict::info});
  }
  context.report.note(
      "hand-off = the holder's release call begins -> the acquire of a waiter on another client returns, the "
      "waiter asleep on the lock's channel (SSUBSCRIBE on the owning master, SPUBLISH by the release, on the "
      "cluster); " +
      grouped(static_cast<int64_t>(on_cluster.ns.size())) + " cluster and " +
      grouped(static_cast<int64_t>(on_standalone.ns.size())) +
      " standalone hand-offs over one name per master (" +
      grouped(on_cluster.not_woken + on_standalone.not_woken) +
      " first or unwoken rounds left out); on the "
      "cluster's masters meanwhile: " +
      grouped(on_cluster.spublish) + " SPUBLISH, " + grouped(on_cluster.ssubscribe) + " SSUBSCRIBE");
}

// ---- the watchdog with 10,000 held locks ----

struct RenewalTraffic {
  double round_trips = 0;                  // the client's renewal_round_trips, per period
  double renewals = 0;                     // holds renewed, per period
  std::vector<double> scripts_per_master;  // EVALSHA/EVAL per period on each master
  int still_held = 0;
};

double per_period(int64_t count) {
  return static_cast<double>(count) / periods;
}

RenewalTraffic measure_renewals(const Deployment& deployment) {
  std::vector<RedisConnection> links = deployment.connect_masters();
  std::vector<std::unique_ptr<TrafficMeter>> meters;
  for (RedisConnection& link : links) meters.push_back(std::make_unique<TrafficMeter>(link));
  const ClientHandle client = open_client(deployment.url, options_with_watchdog(watchdog_timeout_ms));
  HeldLocks locks(client.get(), "bench:cluster:held:", held_locks);
  // Start between two renewals, after the first (which loads the renewal
  // script on each master and brings the holds' due times together).
  std::this_thread::sleep_for(std::chrono::milliseconds(renewal_period_ms * 3 / 2));
  const dlock_client_stats stats_start = stats_of(client.get());
  for (auto& meter : meters) meter->start();
  std::this_thread::sleep_for(std::chrono::milliseconds(renewal_period_ms * periods));
  RenewalTraffic traffic;
  for (auto& meter : meters) traffic.scripts_per_master.push_back(per_period(meter->stop().scripts));
  const dlock_client_stats stats_end = stats_of(client.get());
  traffic.round_trips =
      per_period(static_cast<int64_t>(stats_end.renewal_round_trips - stats_start.renewal_round_trips));
  traffic.renewals = per_period(static_cast<int64_t>(stats_end.renewals - stats_start.renewals));
  traffic.still_held = locks.still_held();
  locks.release_all();
  return traffic;
}

std::string scripts_text(const RenewalTraffic& traffic) {
  std::string text;
  for (const double scripts : traffic.scripts_per_master)
    text += (text.empty() ? "" : " + ") + fixed(scripts, 0);
  return text;
}

void compare_renewals(Report& report, const Deployment& cluster, const Deployment& standalone) {
  const RenewalTraffic on_cluster = measure_renewals(cluster);
  const RenewalTraffic on_standalone = measure_renewals(standalone);
  const double goal = static_cast<double>(cluster.masters);
  report.row({"renewal round trips/period, " + grouped(held_locks) + " locks",
              fixed(on_cluster.round_trips, 1) + " over " + std::to_string(cluster.masters) + " masters",
              fixed(on_standalone.round_trips, 1) + " standalone",
              ratio_text(on_cluster.round_trips / on_standalone.round_trips),
              "<= " + fixed(goal, 0) + " (one per master)",
              verdict(on_cluster.round_trips <= goal && on_cluster.still_held == held_locks)});
  report.row({"  renewal scripts/period on each master", scripts_text(on_cluster),
              scripts_text(on_standalone), "", fixed(static_cast<double>(held_locks), 0) + " in all",
              Verdict::info});
  const auto detail = [](const std::string& label, const RenewalTraffic& traffic) {
    return label + ": " + fixed(traffic.renewals, 0) + " holds renewed per period, " +
           grouped(traffic.still_held) + " still held at the end";
  };
  report.note(
      "watchdog lease " + grouped(watchdog_timeout_ms) + " ms (renewal period " + grouped(renewal_period_ms) +
      " ms), " + std::to_string(periods) +
      " periods measured; round trips = dlock_client_stats."
      "renewal_round_trips (one per node batch), scripts = EVALSHA+EVAL calls in INFO commandstats of each "
      "master; " +
      detail("cluster", on_cluster) + "; " + detail("standalone", on_standalone));
}

}  // namespace

void bench_cluster(const BenchContext& context) {
  Report& report = context.report;
  report.section(
      "10. Redis Cluster (3 masters, 3 replicas) against a standalone node, one lock name per master");
  dlock_test::RedisCluster started;
  const std::vector<int> master_ports = started.master_ports();
  std::vector<std::string> names;
  for (const std::vector<std::string>& on_master : started.names_on_each_master(1, "bench:cluster:")) {
    names.push_back(on_master.front());
  }
  const Deployment cluster{started.url(), master_ports.size(),
                           [&] {
                             std::vector<RedisConnection> links;
                             for (const int port : master_ports) {
                               links.push_back(RedisConnection::tcp("127.0.0.1", port, node_timeout));
                             }
                             return links;
                           },
                           names};
  const Deployment standalone{context.url, 1,
                              [&] {
                                std::vector<RedisConnection> links;
                                links.push_back(connect(context.server));
                                return links;
                              },
                              names};
  compare_pairs(report, cluster, standalone);
  compare_handoffs(context, cluster, standalone);
  compare_renewals(report, cluster, standalone);
  RedisConnection first_master = RedisConnection::tcp("127.0.0.1", master_ports.front(), node_timeout);
  const InfoFields server = info(first_master, "server");
  const auto valkey = server.find("valkey_version");
  report.note(
      "the cluster's nodes (" +
      (valkey != server.end() ? "Valkey " + valkey->second : "Redis " + server.at("redis_version")) +
      ", $DLOCK_TEST_REDIS_SERVER or redis-server, cluster-node-timeout 1000) run on this host beside "
      "the standalone server; the URL lists the 3 masters as seeds");
}

}  // namespace dlock_bench
