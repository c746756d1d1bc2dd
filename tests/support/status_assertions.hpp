#pragma once

#include <gtest/gtest.h>

#include <string>

namespace dlock_test {

// Success when `status` is DLOCK_E_INVALID and dlock_last_error() names `argument`
// (case-insensitively), e.g. EXPECT_TRUE(invalid_naming(dlock_lock_new(c, "", &l), "name")).
::testing::AssertionResult invalid_naming(int status, const std::string& argument);

// Success when `status` is `expected`; the failure message carries dlock_last_error().
::testing::AssertionResult status_is(int status, int expected);

}  // namespace dlock_test
