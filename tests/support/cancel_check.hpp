#pragma once

#include <gtest/gtest.h>

#include <functional>

#include "dlock.h"

namespace dlock_test {

// Runs `wait(cancel)` on a thread of its own and triggers the cancel token
// once it has waited 300 ms. Success when the wait returned
// DLOCK_E_INTERRUPTED within 50 ms of the trigger.
::testing::AssertionResult cancel_ends_wait_promptly(const std::function<int(dlock_cancel*)>& wait);

}  // namespace dlock_test
