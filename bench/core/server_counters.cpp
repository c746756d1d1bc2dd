#include "server_counters.hpp"

#include <string>

namespace dlock_bench {
namespace {

int64_t field(const InfoFields& info, const std::string& name) {
  const auto found = info.find(name);
  return found == info.end() ? 0 : std::stoll(found->second);
}

// A field ("calls" or "usec") of a cmdstat_<command> line; 0 when never called.
int64_t command_stat(const InfoFields& info, const std::string& command, const std::string& name) {
  const auto found = info.find("cmdstat_" + command);
  if (found == info.end()) return 0;
  const std::string& stats = found->second;
  const std::size_t start = stats.find(name + "=") + name.size() + 1;
  return std::stoll(stats.substr(start, stats.find(',', start) - start));
}

}  // namespace

int64_t command_calls(const InfoFields& commandstats, const std::string& command) {
  return command_stat(commandstats, command, "calls");
}

ServerCounters ServerCounters::read(RedisConnection& link) {
  const InfoFields info = dlock_bench::info(link, "everything");
  ServerCounters counters;
  counters.commands = field(info, "total_commands_processed");
  counters.scripts = command_stat(info, "evalsha", "calls") + command_stat(info, "eval", "calls");
  counters.script_us = command_stat(info, "evalsha", "usec") + command_stat(info, "eval", "usec");
  counters.reads = field(info, "total_reads_processed");
  counters.writes = field(info, "total_writes_processed");
  for (const auto& [name, value] : info) {
    if (name.rfind("cmdstat_", 0) == 0) counters.all_calls += command_stat(info, name.substr(8), "calls");
  }
  return counters;
}

ServerCounters ServerCounters::operator-(const ServerCounters& earlier) const {
  ServerCounters delta;
  delta.commands = commands - earlier.commands;
  delta.scripts = scripts - earlier.scripts;
  delta.script_us = script_us - earlier.script_us;
  delta.reads = reads - earlier.reads;
  delta.writes = writes - earlier.writes;
  delta.all_calls = all_calls - earlier.all_calls;
  return delta;
}

TrafficMeter::TrafficMeter(RedisConnection& link) : link_(link) {
  const ServerCounters first = ServerCounters::read(link_);
  probe_cost_ = ServerCounters::read(link_) - first;
}

void TrafficMeter::start() {
  start_ = ServerCounters::read(link_);
}

ServerCounters TrafficMeter::stop() {
  return ServerCounters::read(link_) - start_ - probe_cost_;
}

}  // namespace dlock_bench
