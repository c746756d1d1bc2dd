// A dlock client and one lock handle on it, through the C ABI, closed on scope
// exit; and the mapping from a dlock status to the command's exit code.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "dlock.h"
#include "failure.hpp"

namespace dlock_cli {

// The Failure that reports `status` (a dlock.h error) with `message`.
Failure failure_for_status(int status, const std::string& message);

// Throws a Failure for `status`, saying what was being done and why: `detail`,
// by default dlock_last_error() of the calling thread.
[[noreturn]] void fail_with_status(int status, const std::string& doing, const std::string& detail = "");

// A client through the C ABI, closed on scope exit.
using ClientHandle = std::unique_ptr<dlock_client, void (*)(dlock_client*)>;

// watchdog_lease_ms: the lease the watchdog keeps alive; 0 for the default.
ClientHandle open_client(const std::string& url, int64_t watchdog_lease_ms = 0);

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
  ClientHandle client_;
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
  ClientHandle client_;
  dlock_permit_semaphore* semaphore_ = nullptr;
};

// A client and one election handle on it (dlock elect, dlock leader), closed
// on scope exit: freeing the handle resigns a leadership it still has.
class ElectionSession {
 public:
  // watchdog_lease_ms: the leadership's lease; 0 for the default.
  ElectionSession(const std::string& url, const std::string& name, int64_t watchdog_lease_ms = 0);
  ~ElectionSession();
  ElectionSession(const ElectionSession&) = delete;
  ElectionSession& operator=(const ElectionSession&) = delete;

  dlock_election* election() const { return election_; }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  ClientHandle client_;
  dlock_election* election_ = nullptr;
};

// The URL from --url, else $DLOCK_URL, else the local default.
std::string resolve_url(const std::string& from_option);

}  // namespace dlock_cli
