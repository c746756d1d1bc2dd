// What the benchmark takes from the tests' support library, besides its Redis
// connection (server_link.hpp): dlock handles that throw on a failing call,
// and the host-wide monotonic clock.
#pragma once

#include "dlock_handles.hpp"
#include "monotonic_clock.hpp"

namespace dlock_bench {

using dlock_test::ClientHandle;
using dlock_test::default_options;
using dlock_test::LockHandle;
using dlock_test::monotonic_ns;
using dlock_test::new_lock;
using dlock_test::open_client;
using dlock_test::options_with_watchdog;
using dlock_test::require_ok;

}  // namespace dlock_bench
