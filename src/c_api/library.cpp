// The library-wide entry points: version, status texts, owner ids.
#include <atomic>

#include "dlock.h"

extern "C" {

const char* dlock_version(void) {
  return DLOCK_VERSION_STRING;
}

const char* dlock_strerror(int status) {
  switch (status) {
    case DLOCK_OK:
      return "ok";
    case DLOCK_NOT_ACQUIRED:
      return "not acquired: the wait ran out";
    case DLOCK_E_INVALID:
      return "invalid argument";
    case DLOCK_E_CONNECTION:
      return "connection error: the server unreachable, I/O error or timeout";
    case DLOCK_E_NOT_OWNER:
      return "not owner: the caller does not hold the lock";
    case DLOCK_E_LOST:
      return "lock lost: its lease ran out or it was taken";
    case DLOCK_E_PROTOCOL:
      return "protocol error: the server refused or answered unexpectedly";
    case DLOCK_E_AUTH:
      return "authentication failed";
    case DLOCK_E_INTERRUPTED:
      return "interrupted";
    case DLOCK_E_CLOSED:
      return "client closed";
    case DLOCK_E_NOMEM:
      return "out of memory";
    case DLOCK_E_UNSUPPORTED:
      return "unsupported";
    case DLOCK_E_INTERNAL:
      return "internal error in dlock";
    default:
      return "unknown status";
  }
}

uint64_t dlock_thread_owner(void) {
  static std::atomic<uint64_t> next{0};
  thread_local const uint64_t owner = (uint64_t{1} << 63) | ++next;
  return owner;
}

}  // extern "C"
