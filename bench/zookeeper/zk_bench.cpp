// zk_bench: dlock on zookeeper:// through the C ABI (the lock in Curator's
// InterProcessMutex layout) beside Curator's own InterProcessMutex on the same
// ensemble in the same run, and beside dlock on Redis (issue 23's targets:
// uncontended >= 2x Curator, hand-off p50 <= Curator's). It starts a one-node
// ZooKeeper and a Redis on loopback itself; Curator runs from source with the
// jars tests/interop/curator/fetch-curator.sh fetched.
//
//   zk_bench [--curator-classpath 'DIR/*'] [--processes N] [--run-ms MS]
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "child_process.hpp"
#include "dlock.h"
#include "grant_log.hpp"
#include "monotonic_clock.hpp"
#include "pairs_rate.hpp"
#include "percentile.hpp"
#include "redis_server.hpp"
#include "reference_loop.hpp"
#include "report.hpp"
#include "temp_dir.hpp"
#include "text_file.hpp"
#include "wait_until.hpp"
#include "zk_ensemble.hpp"

namespace dlock_zk_bench {
namespace {

using dlock_bench::duration;
using dlock_test::monotonic_ns;
using dlock_bench::fixed;
using dlock_bench::grouped;
using dlock_bench::percentile;
using dlock_bench::Report;
using dlock_bench::verdict;
using dlock_bench::Verdict;
using std::chrono::milliseconds;

constexpr double target_uncontended_x_curator = 2.0;
constexpr int warmup_ms = 1000;

struct Options {
  std::string curator_classpath;
  int processes = 4;
  int run_ms = 3000;
};

// One acquire+release pair of a contender, and how it connects: dlock on
// ZooKeeper or on Redis (Curator runs in its own JVM).
class Pairs {
 public:
  virtual ~Pairs() = default;
  virtual void acquire() = 0;
  virtual void release() = 0;
};

// dlock through the C ABI, on the backend `url` names.
class ClientPairs : public Pairs {
 public:
  ClientPairs(const std::string& url, const std::string& name) {
    if (dlock_client_open(url.c_str(), nullptr, &client_) != DLOCK_OK ||
        dlock_lock_new(client_, name.c_str(), &lock_) != DLOCK_OK) {
      throw std::runtime_error("dlock on " + url + ": " + dlock_last_error());
    }
  }
  ~ClientPairs() override {
    dlock_lock_free(lock_);
    dlock_client_close(client_);
  }
  void acquire() override {
    if (dlock_lock_acquire(lock_, -1, -1, nullptr) != DLOCK_OK) throw std::runtime_error(dlock_last_error());
  }
  void release() override {
    if (dlock_lock_release(lock_) != DLOCK_OK) throw std::runtime_error(dlock_last_error());
  }

 private:
  dlock_client* client_ = nullptr;
  dlock_lock* lock_ = nullptr;
};

using MakePairs = std::function<std::unique_ptr<Pairs>()>;

// Uncontended pairs per second of one contender, after a warm-up.
double pairs_per_second(const MakePairs& make, int run_ms) {
  auto pairs = make();
  return dlock_bench::pairs_per_second(
      [&] {
        pairs->acquire();
        pairs->release();
      },
      warmup_ms, run_ms);
}

double curator_pairs_per_second(const Options& options, const std::string& hosts, const std::string& dir) {
  return dlock_bench::reference_pairs_per_second(
      {"java", "-cp", options.curator_classpath, DLOCK_ZK_BENCH_CURATOR, "uncontended", hosts,
       "/bench/uncontended-curator", std::to_string(warmup_ms), std::to_string(options.run_ms)},
      dir + "/curator-uncontended.out", 60000 + options.run_ms, "Curator");
}

// `processes` dlock contenders forked from here, each with its own
// connection, start together on `go` and log their grants.
std::vector<std::string> run_dlock_contenders(const MakePairs& make, int processes, int run_ms,
                                              const std::string& dir, const std::string& label) {
  const std::string go = dir + "/go-" + label;
  std::vector<std::string> logs;
  std::vector<pid_t> children;
  for (int p = 0; p < processes; ++p) {
    logs.push_back(dir + "/grants-" + label + "-" + std::to_string(p));
    const pid_t child = fork();
    if (child == 0) {
      int status = 0;
      try {
        auto pairs = make();
        while (access(go.c_str(), F_OK) != 0) std::this_thread::sleep_for(milliseconds(1));
        std::ostringstream lines;
        const std::string owner = label + "-" + std::to_string(getpid());
        const int64_t end = monotonic_ns() + int64_t{run_ms} * 1000000;
        while (monotonic_ns() < end) {
          pairs->acquire();
          const int64_t acquired = monotonic_ns();
          const int64_t released = monotonic_ns();
          pairs->release();
          lines << acquired << ' ' << released << ' ' << owner << '\n';
        }
        std::ofstream(logs.back()) << lines.str();
      } catch (const std::exception& error) {
        std::cerr << label << " contender: " << error.what() << "\n";
        status = 1;
      }
      _exit(status);
    }
    children.push_back(child);
  }
  std::this_thread::sleep_for(milliseconds(500));  // every child connected
  std::ofstream(go) << "go";
  for (const pid_t child : children) {
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error(label + ": a contender failed");
  }
  return logs;
}

std::vector<std::string> run_curator_contenders(const Options& options, const std::string& hosts,
                                                const std::string& path, const std::string& dir) {
  const std::string go = dir + "/go-curator";
  std::vector<std::string> logs;
  std::vector<std::unique_ptr<dlock_test::ChildProcess>> jvms;
  for (int p = 0; p < options.processes; ++p) {
    logs.push_back(dir + "/grants-curator-" + std::to_string(p));
    jvms.push_back(std::make_unique<dlock_test::ChildProcess>(
        std::vector<std::string>{"java", "-cp", options.curator_classpath, DLOCK_ZK_BENCH_CURATOR, "contend", hosts,
                                 path, go, std::to_string(options.run_ms), logs.back()},
        dir + "/curator-" + std::to_string(p) + ".out"));
  }
  for (int p = 0; p < options.processes; ++p) {
    const std::string out = dir + "/curator-" + std::to_string(p) + ".out";
    if (!dlock_test::wait_until([&] { return dlock_test::read_text_file(out).find("ready") != std::string::npos; },
                                std::chrono::seconds(60))) {
      throw std::runtime_error("a Curator contender did not connect: " + dlock_test::read_text_file(out));
    }
  }
  std::this_thread::sleep_for(milliseconds(500));  // JIT settled on the connection
  std::ofstream(go) << "go";
  for (auto& jvm : jvms) {
    const auto status = jvm->wait_for(milliseconds(60000 + options.run_ms));
    if (!status || *status != 0) throw std::runtime_error("a Curator contender failed");
  }
  return logs;
}

int64_t packets_received(dlock_test::ZkEnsemble& zk) {
  const std::string mntr = zk.four_letter_word(0, "mntr");
  const auto at = mntr.find("zk_packets_received");
  return at == std::string::npos ? 0 : std::stoll(mntr.substr(mntr.find_first_of("0123456789", at)));
}

struct Contended {
  int64_t grants = 0;
  Handoffs handoffs;
  double packets_per_grant = 0;  // requests the ZooKeeper server received per grant
};

Contended judge(const std::vector<std::string>& logs, int64_t packets) {
  const std::vector<Grant> grants = read_grants(logs);
  Contended result;
  result.grants = static_cast<int64_t>(grants.size());
  result.handoffs = handoffs(grants);
  if (result.handoffs.ns.empty()) throw std::runtime_error("no hand-off to measure");
  result.packets_per_grant = static_cast<double>(packets) / static_cast<double>(grants.size());
  return result;
}

int run(const Options& options) {
  dlock_test::ZkEnsembleConfig one_node;
  one_node.nodes = 1;
  dlock_test::ZkEnsemble zk(one_node);
  dlock_test::RedisServer redis;
  dlock_test::TempDir dir;
  const std::string hosts = zk.connect_string();
  const std::string zk_url = "zookeeper://" + hosts;
  std::cout << "zk_bench: ZooKeeper (one node) at " << hosts << ", Redis at " << redis.url() << "; "
            << options.processes << " contending processes, " << options.run_ms << " ms per run\n";
  Report report;

  report.section("1. Uncontended acquire+release, one client, after " + std::to_string(warmup_ms) + " ms warm-up");
  const double zk_pairs = pairs_per_second(
      [&] { return std::make_unique<ClientPairs>(zk_url, "/bench/uncontended-dlock"); }, options.run_ms);
  const double curator_pairs = curator_pairs_per_second(options, hosts, dir.path());
  const double redis_pairs =
      pairs_per_second([&] { return std::make_unique<ClientPairs>(redis.url(), "uncontended"); }, options.run_ms);
  const double zk_x_curator = zk_pairs / curator_pairs;
  report.row({"pairs/s on ZooKeeper", grouped(static_cast<int64_t>(zk_pairs)),
              grouped(static_cast<int64_t>(curator_pairs)) + " Curator InterProcessMutex",
              fixed(zk_x_curator, 2) + " x Curator", ">= " + fixed(target_uncontended_x_curator, 0) + " x Curator",
              verdict(zk_x_curator >= target_uncontended_x_curator)});
  report.row({"pairs/s, dlock on Redis", grouped(static_cast<int64_t>(redis_pairs)), "",
              fixed(redis_pairs / zk_pairs, 2) + " x dlock on ZooKeeper", "", Verdict::info});

  report.section("2. Contended hand-off, " + std::to_string(options.processes) +
                 " processes on one lock, nothing held between acquire and release");
  int64_t before = packets_received(zk);
  const auto zk_logs = run_dlock_contenders([&] { return std::make_unique<ClientPairs>(zk_url, "/bench/contended-dlock"); },
                                            options.processes, options.run_ms, dir.path(), "dlock-zk");
  const Contended on_zk = judge(zk_logs, packets_received(zk) - before);
  before = packets_received(zk);
  const auto curator_logs = run_curator_contenders(options, hosts, "/bench/contended-curator", dir.path());
  const Contended on_curator = judge(curator_logs, packets_received(zk) - before);
  const auto redis_logs =
      run_dlock_contenders([&] { return std::make_unique<ClientPairs>(redis.url(), "contended"); },
                           options.processes, options.run_ms, dir.path(), "dlock-redis");
  const Contended on_redis = judge(redis_logs, 0);

  const auto rate = [&](const Contended& c) {
    return grouped(c.grants * 1000 / options.run_ms);
  };
  report.row({"grants/s on ZooKeeper", rate(on_zk), rate(on_curator) + " Curator",
              fixed(static_cast<double>(on_zk.grants) / static_cast<double>(on_curator.grants), 2) + " x Curator",
              "", Verdict::info});
  for (const double p : {50.0, 99.0}) {
    const int64_t ours = percentile(on_zk.handoffs.ns, p);
    const int64_t theirs = percentile(on_curator.handoffs.ns, p);
    const bool judged = p == 50.0;
    report.row({"hand-off p" + fixed(p, 0) + " on ZooKeeper", duration(ours), duration(theirs) + " Curator",
                fixed(static_cast<double>(ours) / static_cast<double>(theirs), 2) + " x Curator",
                judged ? "<= Curator's" : "", judged ? verdict(ours <= theirs) : Verdict::info});
  }
  report.row({"hand-off p50 / p99, dlock on Redis", duration(percentile(on_redis.handoffs.ns, 50)) + " / " +
                                                        duration(percentile(on_redis.handoffs.ns, 99)),
              "", "", "", Verdict::info});
  report.row({"ZooKeeper requests per grant", fixed(on_zk.packets_per_grant, 2),
              fixed(on_curator.packets_per_grant, 2) + " Curator", "", "", Verdict::info});
  report.row({"overlapping grants (all runs)",
              grouped(on_zk.handoffs.overlaps + on_curator.handoffs.overlaps + on_redis.handoffs.overlaps), "", "",
              "none",
              verdict(on_zk.handoffs.overlaps + on_curator.handoffs.overlaps + on_redis.handoffs.overlaps == 0)});
  report.note("hand-off = the holder is about to send its release -> another process's acquire returns (every "
              "contender waits between its grants); grants that followed their owner's own release: dlock on "
              "ZooKeeper " + grouped(on_zk.handoffs.same_owner_again) + ", Curator " +
              grouped(on_curator.handoffs.same_owner_again) + ", dlock on Redis " +
              grouped(on_redis.handoffs.same_owner_again));
  report.note("requests per grant = zk_packets_received (mntr) over the run / grants, sessions' pings included; "
              "dlock on either server is a client through the C ABI (dlock_lock_acquire/release)");
  report.print(std::cout);
  return report.missed() == 0 ? 0 : 2;
}

Options parse(int argc, char** argv) {
  Options options;
  if (const char* classpath = std::getenv("DLOCK_TEST_CURATOR_CLASSPATH")) options.curator_classpath = classpath;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + ": needs a value");
      return argv[++i];
    };
    if (arg == "--curator-classpath") {
      options.curator_classpath = value();
    } else if (arg == "--processes") {
      options.processes = std::stoi(value());
    } else if (arg == "--run-ms") {
      options.run_ms = std::stoi(value());
    } else {
      throw std::invalid_argument("unknown argument " + arg);
    }
  }
  if (options.curator_classpath.empty()) {
    throw std::invalid_argument("--curator-classpath: Curator's jars (tests/interop/curator/fetch-curator.sh DIR, "
                                "then 'DIR/*'), or DLOCK_TEST_CURATOR_CLASSPATH");
  }
  if (options.processes < 2) throw std::invalid_argument("--processes: at least 2");
  if (options.run_ms < 100) throw std::invalid_argument("--run-ms: at least 100");
  return options;
}

}  // namespace
}  // namespace dlock_zk_bench

int main(int argc, char** argv) {
  try {
    return dlock_zk_bench::run(dlock_zk_bench::parse(argc, argv));
  } catch (const std::exception& error) {
    std::cerr << "zk_bench: " << error.what() << "\n";
    return 1;
  }
}
