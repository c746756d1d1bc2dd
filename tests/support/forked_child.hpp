// What the fork tests of every backend check in a child: a client opened
// before fork() serves the child on a session of its own.
#pragma once

#include <string>

#include "dlock.h"

namespace dlock_test {

// Forks. The child checks that `parents_lock` (which the parent holds) is not
// its own (not granted to it, not held, not released by it) and that a lock
// `own_name` of `client` is granted, released and granted again; then closes
// the client and exits. Returns "" when every check passed, else what went
// wrong: the child hung (killed after 20 s), died of a signal, or which check
// failed. Call it from the test's main thread.
std::string run_forked_child_checks(dlock_client* client, dlock_lock* parents_lock, const std::string& own_name);

}  // namespace dlock_test
