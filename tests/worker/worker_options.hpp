#pragma once

#include <cstdint>
#include <string>

#include "dlock.h"

namespace dlock_worker {

enum class Mode {
  cycles,       // threads x cycles of acquire / read-modify-write / release
  hold,         // one acquire, reported on stdout, held for hold_ms, then one write and a release
  permits,      // as cycles, on the leased-permit semaphore (permit_workers.hpp)
  permit_hold,  // as hold, one leased permit
  multilock,  // cycles on a MultiLock over the comma-separated --name list (in the order given), one log and
              // store per name (<log>.<name>, <store>.<name>)
  redlock,    // cycles on a RedLock over the lock --name on each server of --urls (';'-separated)
  semaphore,  // as cycles, one permit of the plain semaphore --name (set to --permits when missing)
  latch,      // rounds of a count-down latch: a waiter thread awaits while the thread counts down
              // (latch_loop.hpp)
  election,   // as cycles, each section a leadership: campaign / read-modify-write / resign (election_loop.hpp)
};

struct WorkerOptions {
  Mode mode = Mode::cycles;
  std::string url;
  std::string name = "contended";
  // What is taken: "lock" the reentrant lock, "fair" the fair lock, a side of
  // the read-write lock ("read", "write"), or (cycles mode) "read-write": each
  // cycle a write with probability 1/write_one_in, else a read.
  std::string kind = "lock";
  std::string log_path;    // section log (optional in hold mode)
  std::string store_path;  // fenced store
  int threads = 1;
  int cycles = 10;
  int64_t lease_ms = -1;            // -1: watchdog
  int64_t watchdog_timeout_ms = 0;  // 0: the library default
  int64_t min_sleep_us = 0;         // time spent inside a critical section,
  int64_t max_sleep_us = 2000;      // uniformly random in [min, max]
  int64_t hold_ms = 1000;
  int permits = 1;       // the permit modes set the semaphore to this many when it does not exist
  std::string urls;      // redlock: the servers, ';'-separated
  int64_t wait_ms = -1;  // multilock, redlock: each acquire's wait
  int write_one_in = 4;
  // The safety run's fault mode: an acquire that fails with an error (a
  // killed connection, a restarting server, a failover) is retried instead of
  // ending the thread, and a release error is logged with its section.
  bool tolerate_errors = false;
  bool announce = false;  // print "acquired <cycle>" as each section starts
};

// Parses --key value pairs; throws std::invalid_argument with a usage message.
WorkerOptions parse_worker_options(int argc, char** argv);

dlock_client_options client_options(const WorkerOptions& options);

}  // namespace dlock_worker
