// What a Redis server received over an interval, from INFO: commands, script
// calls, and the read and write events of its event loop. Every round trip a
// client makes costs the server at least one read and one write, so those two
// bound the number of round trips from above, whatever the pipelining.
#pragma once

#include <cstdint>
#include <string>

#include "server_link.hpp"

namespace dlock_bench {

struct ServerCounters {
  int64_t commands = 0;   // total_commands_processed
  int64_t scripts = 0;    // EVALSHA + EVAL calls
  int64_t script_us = 0;  // server time spent in them
  int64_t reads = 0;      // total_reads_processed
  int64_t writes = 0;     // total_writes_processed
  int64_t all_calls = 0;  // every command's calls in INFO commandstats, those inside scripts included

  static ServerCounters read(RedisConnection& link);
  ServerCounters operator-(const ServerCounters& earlier) const;
  // The tighter of the two round-trip bounds.
  int64_t round_trips_at_most() const { return reads < writes ? reads : writes; }
  int64_t us_per_script() const { return scripts == 0 ? 0 : script_us / scripts; }
};

// The calls of `command` (lower case) in INFO commandstats; 0 when never called.
int64_t command_calls(const InfoFields& commandstats, const std::string& command);

// Measures an interval on a server, minus what its own INFO probes cost
// (calibrated once, by two probes back to back).
class TrafficMeter {
 public:
  explicit TrafficMeter(RedisConnection& link);
  void start();
  ServerCounters stop();

 private:
  RedisConnection& link_;
  ServerCounters probe_cost_;
  ServerCounters start_;
};

}  // namespace dlock_bench
