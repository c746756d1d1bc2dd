// A dlock client and one lock handle on it, through the C ABI, closed on scope
// exit; and the mapping from a dlock status to the command's exit code.
#pragma once

#include <cstdint>
#include <string>

#include "dlock.h"
#include "failure.hpp"

namespace dlock_cli {

// The Failure that reports `status` (a dlock.h error) with `message`.
Failure failure_for_status(int status, const std::string& message);

// Throws a Failure for `status`, saying what was being done and why: `detail`,
// by default dlock_last_error() of the calling thread.
[[noreturn]] void fail_with_status(int status, const std::string& doing, const std::string& detail = "");

// Opens a client of `url`; watchdog_lease_ms 0 keeps the default lease.
// Throws a Failure when it cannot.
dlock_client* open_client(const std::string& url, int64_t watchdog_lease_ms);

class LockSession {
 public:
  // watchdog_lease_ms: the lease the watchdog keeps alive; 0 for the default.
  LockSession(const std::string& url, const std::string& name, int64_t watchdog_lease_ms = 0);
  ~LockSession();
  LockSession(const LockSession&) = delete;
  LockSession& operator=(const LockSession&) = delete;

  dlock_lock* lock() const { return lock_; }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  dlock_client* client_ = nullptr;
  dlock_lock* lock_ = nullptr;
};

// A client and one leased-permit semaphore handle on it (dlock run --permits),
// closed on scope exit.
class PermitSession {
 public:
  // Sets the semaphore to `permits` when it does not exist yet.
  PermitSession(const std::string& url, const std::string& name, int permits, int64_t watchdog_lease_ms);
  ~PermitSession();
  PermitSession(const PermitSession&) = delete;
  PermitSession& operator=(const PermitSession&) = delete;

  dlock_permit_semaphore* semaphore() const { return semaphore_; }

 private:
  dlock_client* client_ = nullptr;
  dlock_permit_semaphore* semaphore_ = nullptr;
};

// The URL from --url, else $DLOCK_URL, else the local default.
std::string resolve_url(const std::string& from_option);

}  // namespace dlock_cli
