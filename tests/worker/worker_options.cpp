#include "worker_options.hpp"

#include <functional>
#include <map>
#include <stdexcept>

#include "dlock_handles.hpp"

namespace dlock_worker {

WorkerOptions parse_worker_options(int argc, char** argv) {
  WorkerOptions options;
  const std::map<std::string, std::function<void(const std::string&)>> setters = {
      {"--mode",
       [&](const std::string& v) {
         const std::map<std::string, Mode> modes = {
             {"cycles", Mode::cycles},           {"hold", Mode::hold},           {"permits", Mode::permits},
             {"permit-hold", Mode::permit_hold}, {"multilock", Mode::multilock}, {"redlock", Mode::redlock},
             {"semaphore", Mode::semaphore},     {"latch", Mode::latch},
             {"election", Mode::election}};
         const auto mode = modes.find(v);
         if (mode == modes.end())
           throw std::invalid_argument(
               "--mode is cycles, hold, permits, permit-hold, multilock, redlock, semaphore, latch or election");
         options.mode = mode->second;
       }},
      {"--url", [&](const std::string& v) { options.url = v; }},
      {"--name", [&](const std::string& v) { options.name = v; }},
      {"--kind", [&](const std::string& v) { options.kind = v; }},
      {"--log", [&](const std::string& v) { options.log_path = v; }},
      {"--store", [&](const std::string& v) { options.store_path = v; }},
      {"--threads", [&](const std::string& v) { options.threads = std::stoi(v); }},
      {"--cycles", [&](const std::string& v) { options.cycles = std::stoi(v); }},
      {"--lease-ms", [&](const std::string& v) { options.lease_ms = std::stoll(v); }},
      {"--watchdog-timeout-ms", [&](const std::string& v) { options.watchdog_timeout_ms = std::stoll(v); }},
      {"--min-sleep-us", [&](const std::string& v) { options.min_sleep_us = std::stoll(v); }},
      {"--max-sleep-us", [&](const std::string& v) { options.max_sleep_us = std::stoll(v); }},
      {"--hold-ms", [&](const std::string& v) { options.hold_ms = std::stoll(v); }},
      {"--permits", [&](const std::string& v) { options.permits = std::stoi(v); }},
      {"--urls", [&](const std::string& v) { options.urls = v; }},
      {"--wait-ms", [&](const std::string& v) { options.wait_ms = std::stoll(v); }},
      {"--write-one-in", [&](const std::string& v) { options.write_one_in = std::stoi(v); }},
      {"--tolerate-errors", [&](const std::string& v) { options.tolerate_errors = v == "1"; }},
      {"--announce", [&](const std::string& v) { options.announce = v == "1"; }},
  };
  for (int i = 1; i < argc; i += 2) {
    const auto setter = setters.find(argv[i]);
    if (setter == setters.end() || i + 1 >= argc) {
      throw std::invalid_argument(std::string("unknown option or missing value: ") + argv[i]);
    }
    setter->second(argv[i + 1]);
  }
  // The semaphores and the latch guard no store.
  const bool permit_mode = options.mode == Mode::permits || options.mode == Mode::permit_hold ||
                           options.mode == Mode::semaphore || options.mode == Mode::latch;
  if ((options.url.empty() && options.urls.empty()) || (options.store_path.empty() && !permit_mode)) {
    throw std::invalid_argument(
        "--url (or --urls) and --store are required (--store but in the permit, semaphore and latch modes)");
  }
  if (options.mode != Mode::hold && options.mode != Mode::permit_hold && options.log_path.empty()) {
    throw std::invalid_argument("--log is required in cycles mode");
  }
  return options;
}

dlock_client_options client_options(const WorkerOptions& options) {
  return options.watchdog_timeout_ms > 0 ? dlock_test::options_with_watchdog(options.watchdog_timeout_ms)
                                         : dlock_test::default_options();
}

}  // namespace dlock_worker
