// dlock_bench: prints, in one run, dlock's performance figures next to the
// reference each is compared with (SPEC.md section 7). It starts its own
// throwaway redis-server, as the tests do (DLOCK_BENCH_REDIS_SERVER, default
// "redis-server"), unless --url names one.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "backends/redis/net/url.hpp"
#include "borrowed.hpp"
#include "dlock.h"
#include "percentile.hpp"
#include "redis_server.hpp"
#include "report.hpp"
#include "sections.hpp"
#include "server_link.hpp"

namespace dlock_bench {
namespace {

constexpr int ping_samples = 2000;
constexpr int idle_ping_samples = 300;

const char* const usage =
    "usage: dlock_bench [--url redis://[user[:password]@]host[:port][/db]] [--only N[,N...]]\n"
    "                   [--baseline-lib PATH]\n"
    "  Without --url, starts redis-server ($DLOCK_BENCH_REDIS_SERVER or redis-server from PATH)\n"
    "  on a free loopback port. --only runs the listed sections (1-12) only. --baseline-lib: an\n"
    "  earlier build's libdlock.so, run beside this build in section 11.\n";

struct Options {
  std::string url;
  std::set<int> only;
  std::string baseline_library;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if ((argument == "--url" || argument == "--only" || argument == "--baseline-lib") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (argument == "--url") {
        options.url = value;
      } else if (argument == "--baseline-lib") {
        options.baseline_library = value;
      } else {
        std::istringstream list(value);
        for (std::string number; std::getline(list, number, ',');) options.only.insert(std::stoi(number));
      }
    } else {
      throw std::invalid_argument(argument == "--help" ? "" : "unexpected argument '" + argument + "'");
    }
  }
  return options;
}

std::string server_version(RedisConnection& link) {
  const InfoFields server = info(link, "server");
  const auto found = server.find("redis_version");
  return found == server.end() ? "?" : found->second;
}

// Median time of a PING round trip over `samples` sequential PINGs, each
// sent `pause` after the last answer.
int64_t ping_round_trip_ns(RedisConnection& link, int samples,
                           std::chrono::microseconds pause = std::chrono::microseconds(0)) {
  std::vector<int64_t> round_trips;
  for (int i = 0; i < samples; ++i) {
    if (pause.count() > 0) std::this_thread::sleep_for(pause);
    const int64_t sent = monotonic_ns();
    checked(link, {"PING"});
    round_trips.push_back(monotonic_ns() - sent);
  }
  return percentile(round_trips, 50);
}

std::string where(const dlock::ClientConfig& server) {
  return server.transport == dlock::ClientConfig::Transport::unix_socket
             ? server.socket_path
             : server.host + ':' + std::to_string(server.port);
}

int run(const Options& options) {
  std::unique_ptr<dlock_test::RedisServer> started;
  std::string url = options.url;
  if (url.empty()) {
    dlock_test::RedisServerConfig config;
    if (const char* executable = std::getenv("DLOCK_BENCH_REDIS_SERVER")) config.executable = executable;
    started = std::make_unique<dlock_test::RedisServer>(config);
    url = started->url();
  }
  // dlock's own URL grammar, so the benchmark reaches the server dlock reaches.
  dlock::ClientConfig server;
  dlock::apply_url(url, server);
  RedisConnection link = connect(server);
  Report report;
  const BenchContext context{url,
                             server,
                             ping_round_trip_ns(link, ping_samples),
                             ping_round_trip_ns(link, idle_ping_samples, std::chrono::milliseconds(1)),
                             report,
                             options.baseline_library};
  std::cout << "dlock " << dlock_version() << " against Redis " << server_version(link) << " at "
            << where(server) << (started ? " (started by the benchmark)" : "")
            << "; PING round trip (median of " << ping_samples << "): " << duration(context.round_trip_ns)
            << ", after 1 ms idle (median of " << idle_ping_samples << "): " << duration(context.idle_round_trip_ns)
            << "\n";

  const std::function<void(const BenchContext&)> sections[] = {
      bench_uncontended,  bench_reentrant,   bench_handoff,         bench_watchdog_cost,
      bench_footprint,    bench_async_paths, bench_uncontended_tls, bench_sentinel_failover,
      bench_fair_handoff, bench_cluster,     bench_lock_turns,      bench_election};
  for (int number = 1; number <= 12; ++number) {
    if (options.only.empty() || options.only.count(number) != 0) sections[number - 1](context);
  }
  report.print(std::cout);
  std::cout << "\ntargets missed: " << report.missed() << "\n";
  return 0;
}

}  // namespace
}  // namespace dlock_bench

int main(int argc, char** argv) {
  dlock_bench::Options options;
  try {
    options = dlock_bench::parse(argc, argv);
  } catch (const std::exception& error) {
    if (std::strlen(error.what()) != 0) std::cerr << "dlock_bench: " << error.what() << "\n";
    std::cerr << dlock_bench::usage;
    return 2;
  }
  try {
    return dlock_bench::run(options);
  } catch (const std::exception& error) {
    std::cerr << "dlock_bench: " << error.what() << "\n";
    return 1;
  }
}
