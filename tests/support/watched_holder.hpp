#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "dlock.h"
#include "lost_recorder.hpp"
#include "section_log.hpp"

namespace dlock_test {

// The start of a loss scenario: `lock` (watchdog lease of `watchdog_ms`, `lost`
// attached) is acquired by the calling thread as the section "holder", which then
// waits past the first renewal. Fails unless the acquire succeeds and no loss is
// reported meanwhile; `holder` gets the token and start time.
::testing::AssertionResult hold_past_first_renewal(dlock_lock* lock, const LostRecorder& lost,
                                                   int64_t watchdog_ms, Section& holder);

}  // namespace dlock_test
