// The internal error hierarchy: each class carries the dlock.h status that
// the C ABI returns for it.
#pragma once

#include <stdexcept>
#include <string>

#include "dlock.h"

struct redisContext;
struct redisReply;

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

#undef DLOCK_DEFINE_ERROR

// The one place hiredis failures become dlock errors. `what` names the
// operation; `where` the server, never with its password.
[[noreturn]] void throw_context_error(const redisContext* context, const std::string& what,
                                      const std::string& where);
// Throws for an error reply (AuthError for NOAUTH/WRONGPASS, ProtocolError
// otherwise); returns for any other reply.
void throw_if_error_reply(const redisReply* reply, const std::string& what);

}  // namespace dlock
