// The safety run (scripts/safety-run.sh): every primitive under every fault,
// judged by an independent checker over the sections the workers logged.
// Exit 0: no claimed-safe cell broke and the known-unsafe failover window was
// flagged; 1: a claimed-safe cell broke, the window went unseen (a checker
// that cannot see it proves nothing) or a phase could not run; 2: bad arguments.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "deployment.hpp"
#include "monotonic_clock.hpp"
#include "phase_run.hpp"
#include "plan.hpp"
#include "report.hpp"

namespace dlock_safety {
namespace {

struct Options {
  std::string mode;
  std::string report_path;
  std::string work_dir;
  std::vector<Fault> faults = all_faults();
  std::vector<Primitive> primitives = all_primitives();
  std::string command;  // how the report says the run was started (--command)
};

template <typename T>
std::vector<T> pick(const std::string& list, const std::vector<T>& all, std::string (*name)(T),
                    const std::string& argument) {
  std::vector<T> picked;
  std::stringstream stream(list);
  for (std::string item; std::getline(stream, item, ',');) {
    bool found = false;
    for (T candidate : all) {
      if (name(candidate) == item) {
        picked.push_back(candidate);
        found = true;
      }
    }
    if (!found) throw std::invalid_argument(argument + ": unknown '" + item + "'");
  }
  return picked;
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(argument + " needs a value");
      return argv[++i];
    };
    if (argument == "--short" || argument == "--long") {
      options.mode = argument.substr(2);
    } else if (argument == "--report") {
      options.report_path = value();
    } else if (argument == "--command") {
      options.command = value();
    } else if (argument == "--work-dir") {
      options.work_dir = value();
    } else if (argument == "--faults") {
      options.faults = pick<Fault>(value(), all_faults(), fault_name, "--faults");
    } else if (argument == "--primitives") {
      options.primitives = pick<Primitive>(value(), all_primitives(), primitive_name, "--primitives");
    } else {
      throw std::invalid_argument("unknown argument " + argument);
    }
  }
  if (options.mode.empty() || options.report_path.empty() || options.work_dir.empty())
    throw std::invalid_argument("--short or --long, --report FILE and --work-dir DIR are required");
  if (options.command.empty()) options.command = std::string(argv[0]) + " --" + options.mode;
  return options;
}

RunSettings settings_for(const Options& options) {
  RunSettings settings;
  settings.work_dir = options.work_dir;
  if (options.mode == "long") {
    settings.grants = 10000;
    settings.fault_repeats = 3;
    settings.phase_deadline = std::chrono::seconds(1800);
  } else {
    settings.grants = 300;
    settings.fault_repeats = 1;
    settings.phase_deadline = std::chrono::seconds(30);
  }
  return settings;
}

// The failover window without sync_replicas must show on the lock: the proof
// that the checker sees a double grant when there is one.
bool window_flagged(const std::vector<CellResult>& results) {
  for (const CellResult& result : results) {
    if (result.primitive != Primitive::lock ||
        (result.fault != Fault::sentinel_failover && result.fault != Fault::cluster_failover))
      continue;
    if (result.violations + result.fenced == 0) return false;
  }
  return true;
}

int run(const Options& options) {
  const RunSettings settings = settings_for(options);
  const int64_t started = dlock_test::monotonic_ns();
  std::vector<CellResult> results;
  std::unique_ptr<dlock_test::SentinelCluster> sentinel;
  std::unique_ptr<dlock_test::RedisCluster> cluster;
  std::unique_ptr<dlock_test::ZkEnsemble> ensemble;
  std::unique_ptr<dlock_test::SqlTestServer> postgresql;
  std::unique_ptr<dlock_test::SqlTestServer> mariadb;
  std::vector<std::string> phase_errors;  // a phase that could not run is reported, and fails the run
  for (Fault fault : options.faults) {
    std::fprintf(stderr, "safety-run: %s\n", fault_name(fault).c_str());
    try {
      std::unique_ptr<Deployment> deployment;
      switch (topology_of(fault)) {
        case Topology::standalone:
          deployment = std::make_unique<Deployment>(fault == Fault::restart_appendonly);
          break;
        case Topology::sentinel:
          if (!sentinel) sentinel = std::make_unique<dlock_test::SentinelCluster>();
          deployment = std::make_unique<Deployment>(*sentinel);
          break;
        case Topology::cluster:
          if (!cluster) cluster = std::make_unique<dlock_test::RedisCluster>();
          deployment = std::make_unique<Deployment>(*cluster);
          break;
        case Topology::zookeeper:
          if (!ensemble) ensemble = std::make_unique<dlock_test::ZkEnsemble>();
          deployment = std::make_unique<Deployment>(*ensemble);
          break;
        case Topology::postgresql:
          if (!postgresql) postgresql = dlock_test::start_sql_server(dlock_test::SqlServerKind::postgresql);
          deployment = std::make_unique<Deployment>(*postgresql, Topology::postgresql);
          break;
        case Topology::mariadb:
          if (!mariadb) mariadb = dlock_test::start_sql_server(dlock_test::SqlServerKind::mariadb);
          deployment = std::make_unique<Deployment>(*mariadb, Topology::mariadb);
          break;
      }
      for (CellResult& result : run_phase(fault, *deployment, options.primitives, settings)) {
        std::fprintf(stderr, "  %-16s %6zu ops  %s\n", primitive_name(result.primitive).c_str(),
                     result.operations, result.verdict().c_str());
        results.push_back(std::move(result));
      }
    } catch (const std::exception& error) {
      phase_errors.push_back(fault_name(fault) + ": " + error.what());
      std::fprintf(stderr, "safety-run: the %s phase could not run: %s\n", fault_name(fault).c_str(),
                   error.what());
    }
  }
  const double seconds = static_cast<double>(dlock_test::monotonic_ns() - started) / 1e9;
  std::ofstream(options.report_path) << markdown_report(results, phase_errors, options.command, options.mode,
                                                        seconds);
  bool broken = false;
  for (const CellResult& result : results) broken = broken || result.breaks_claim();
  if (broken) std::fprintf(stderr, "safety-run: a claimed-safe configuration showed a violation\n");
  if (!window_flagged(results)) {
    std::fprintf(stderr, "safety-run: the unreplicated-failover window on the lock went unflagged\n");
    return 1;
  }
  return broken || !phase_errors.empty() ? 1 : 0;
}

}  // namespace
}  // namespace dlock_safety

int main(int argc, char** argv) {
  dlock_safety::Options options;
  try {
    options = dlock_safety::parse(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "usage error: %s\n", error.what());
    return 2;
  }
  try {
    return dlock_safety::run(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "safety-run failed: %s\n", error.what());
    return 1;
  }
}
