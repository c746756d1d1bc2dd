// The internal error hierarchy: each class carries the dlock.h status that
// the C ABI returns for it.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "dlock.h"

namespace dlock {

class Error : public std::runtime_error {
 public:
  Error(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const noexcept { return status_; }

 private:
  int status_;
};

#define DLOCK_DEFINE_ERROR(Name, Status)                                  \
  struct Name : Error {                                                   \
    explicit Name(const std::string& message) : Error(Status, message) {} \
  }

DLOCK_DEFINE_ERROR(InvalidArgument, DLOCK_E_INVALID);
DLOCK_DEFINE_ERROR(ConnectionError, DLOCK_E_CONNECTION);
DLOCK_DEFINE_ERROR(NotOwnerError, DLOCK_E_NOT_OWNER);
DLOCK_DEFINE_ERROR(LostError, DLOCK_E_LOST);
DLOCK_DEFINE_ERROR(ProtocolError, DLOCK_E_PROTOCOL);
DLOCK_DEFINE_ERROR(AuthError, DLOCK_E_AUTH);
DLOCK_DEFINE_ERROR(InterruptedError, DLOCK_E_INTERRUPTED);
DLOCK_DEFINE_ERROR(ClosedError, DLOCK_E_CLOSED);
DLOCK_DEFINE_ERROR(UnsupportedError, DLOCK_E_UNSUPPORTED);
DLOCK_DEFINE_ERROR(InternalError, DLOCK_E_INTERNAL);

#undef DLOCK_DEFINE_ERROR

// A fixed lease that ran out as asked (expiry, not loss): still DLOCK_E_LOST,
// so handlers of a loss catch it; dlock_last_error_is_expiry() tells it apart.
struct ExpiredError : LostError {
  using LostError::LostError;
};

// A connection error that no retry can heal (a Unix socket path that does not
// exist, a host name that does not resolve): reported at once.
struct PermanentConnectionError : ConnectionError {
  using ConnectionError::ConnectionError;
};

// Nothing listens at the address. Retried once the server has answered
// (it may be restarting); reported at once when a client is opened.
struct RefusedConnectionError : ConnectionError {
  using ConnectionError::ConnectionError;
};

// A server state that passes (LOADING, BUSY, MASTERDOWN...): retried like a
// broken connection until the command timeout, then reported as one.
struct TransientServerError : ConnectionError {
  using ConnectionError::ConnectionError;
};

// Cluster: MOVED or ASK, the key's slot is served by another node. Retried
// there at once (and, when nothing follows it, like a transient state).
struct RedirectError : TransientServerError {
  RedirectError(const std::string& message, bool ask, int slot, std::string host, int port)
      : TransientServerError(message), ask(ask), slot(slot), host(std::move(host)), port(port) {}
  bool ask;  // ASK: this one command goes there (after ASKING); MOVED: the slot moved
  int slot;
  std::string host;
  int port;
};

}  // namespace dlock
