// The status funnel of the C ABI: every entry point runs its work inside
// guarded(), the one place where internal errors become status codes and
// dlock_last_error() text, so no C++ exception crosses the boundary.
#pragma once

#include <cstdint>
#include <exception>
#include <new>
#include <string>

#include "common/error.hpp"
#include "dlock.h"

namespace dlock::c_api {

// Records the calling thread's last error (`expiry`: a fixed lease that ran
// out as asked, see ExpiredError); returns `status`.
int fail(int status, const std::string& message, bool expiry = false) noexcept;

template <typename Work>
int guarded(Work&& work) noexcept {
  try {
    return work();
  } catch (const ExpiredError& error) {
    return fail(error.status(), error.what(), true);
  } catch (const Error& error) {
    return fail(error.status(), error.what());
  } catch (const std::bad_alloc&) {
    return fail(DLOCK_E_NOMEM, "out of memory");
  } catch (const std::exception& error) {
    return fail(DLOCK_E_INTERNAL, std::string("internal error: ") + error.what());
  } catch (...) {
    return fail(DLOCK_E_INTERNAL, "internal error: an unknown exception");
  }
}

template <typename T>
void require(const T* pointer, const char* name) {
  if (pointer == nullptr) throw InvalidArgument(std::string(name) + ": must not be NULL");
}

// wait_ms: -1 forever, 0 one attempt, > 0 at most that long (longer than
// DLOCK_DURATION_MAX_MS counts as forever). Returns the wait to use.
int64_t checked_wait(int64_t wait_ms);
// lease_ms: -1 watchdog, or 1..DLOCK_DURATION_MAX_MS.
void require_lease(int64_t lease_ms);

}  // namespace dlock::c_api
