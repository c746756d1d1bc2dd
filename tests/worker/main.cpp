// A lock client run as a separate process by the tests: see worker_options.hpp.
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "contention_loop.hpp"
#include "election_loop.hpp"
#include "group_loop.hpp"
#include "latch_loop.hpp"
#include "permit_workers.hpp"
#include "semaphore_loop.hpp"
#include "single_hold.hpp"
#include "worker_options.hpp"

int main(int argc, char** argv) {
  dlock_worker::WorkerOptions options;
  try {
    options = dlock_worker::parse_worker_options(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "usage error: %s\n", error.what());
    return 2;
  }
  try {
    switch (options.mode) {
      case dlock_worker::Mode::hold:
        return dlock_worker::run_single_hold(options);
      case dlock_worker::Mode::permits:
        return dlock_worker::run_permit_loop(options);
      case dlock_worker::Mode::permit_hold:
        return dlock_worker::run_permit_hold(options);
      case dlock_worker::Mode::multilock:
      case dlock_worker::Mode::redlock:
        return dlock_worker::run_group_loop(options);
      case dlock_worker::Mode::semaphore:
        return dlock_worker::run_semaphore_loop(options);
      case dlock_worker::Mode::latch:
        return dlock_worker::run_latch_loop(options);
      case dlock_worker::Mode::election:
        return dlock_worker::run_election_loop(options);
      case dlock_worker::Mode::cycles:
        break;
    }
    return dlock_worker::run_contention_loop(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "worker failed: %s\n", error.what());
    return 3;
  }
}
