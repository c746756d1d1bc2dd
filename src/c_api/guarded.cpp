#include "c_api/guarded.hpp"

namespace dlock::c_api {
namespace {

thread_local std::string last_error;
thread_local bool last_error_is_expiry = false;

}  // namespace

int fail(int status, const std::string& message, bool expiry) noexcept {
  last_error_is_expiry = expiry;
  try {
    last_error = message;
  } catch (...) {
    last_error.clear();  // no memory for the text: the status still says what happened
  }
  return status;
}

int64_t checked_wait(int64_t wait_ms) {
  if (wait_ms < -1) {
    throw InvalidArgument("wait_ms: must be -1 (forever), 0 (one attempt) or > 0, got " +
                          std::to_string(wait_ms));
  }
  return wait_ms > DLOCK_DURATION_MAX_MS ? -1 : wait_ms;
}

void require_lease(int64_t lease_ms) {
  if (lease_ms == 0 || lease_ms < -1 || lease_ms > DLOCK_DURATION_MAX_MS) {
    throw InvalidArgument("lease_ms: must be -1 (kept alive by the watchdog) or 1.." +
                          std::to_string(DLOCK_DURATION_MAX_MS) + ", got " + std::to_string(lease_ms));
  }
}

}  // namespace dlock::c_api

extern "C" const char* dlock_last_error(void) {
  return dlock::c_api::last_error.c_str();
}

extern "C" int dlock_last_error_is_expiry(void) {
  return dlock::c_api::last_error_is_expiry ? 1 : 0;
}
