#include "worker_launcher.hpp"

#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "wait_until.hpp"

namespace dlock_test {
namespace {

// The build passes the worker's path; DLOCK_TEST_WORKER overrides it.
std::string worker_path() {
  const char* configured = std::getenv("DLOCK_TEST_WORKER");
  return configured != nullptr && *configured != '\0' ? configured : DLOCK_TEST_WORKER_PATH;
}

std::optional<std::string> find_output(const std::string& path, const std::string& key) {
  std::istringstream lines(read_text_file(path));
  std::string line;
  const std::string prefix = key + " ";
  while (std::getline(lines, line)) {
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  }
  return std::nullopt;
}

}  // namespace

std::unique_ptr<ChildProcess> start_worker(const std::vector<std::string>& arguments,
                                           const std::string& output_path) {
  std::vector<std::string> argv{worker_path()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return std::make_unique<ChildProcess>(argv, output_path);
}

std::unique_ptr<ChildProcess> start_hold_worker(const HoldWorker& worker, const std::string& output_path) {
  std::vector<std::string> arguments{
      "--mode",    "hold",    "--url",      worker.url,  "--name",
      worker.name, "--store", worker.store, "--hold-ms", std::to_string(worker.hold_ms)};
  if (!worker.log.empty()) arguments.insert(arguments.end(), {"--log", worker.log});
  if (!worker.kind.empty()) arguments.insert(arguments.end(), {"--kind", worker.kind});
  arguments.insert(arguments.end(), worker.lease_arguments.begin(), worker.lease_arguments.end());
  return start_worker(arguments, output_path);
}

std::optional<std::string> wait_for_output(const std::string& path, const std::string& key,
                                           std::chrono::milliseconds timeout) {
  std::optional<std::string> value;
  wait_until([&] { return (value = find_output(path, key)).has_value(); }, timeout);
  return value;
}

uint64_t wait_until_acquired(const std::string& output_path) {
  const auto token = wait_for_output(output_path, "acquired", std::chrono::milliseconds(10000));
  if (!token) throw std::runtime_error("the holder never acquired: " + read_text_file(output_path));
  return std::stoull(*token);
}

}  // namespace dlock_test
