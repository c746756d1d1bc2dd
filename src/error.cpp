#include "error.hpp"

#include <hiredis/hiredis.h>

#include <new>

namespace dlock {

void throw_context_error(const redisContext* context, const std::string& what, const std::string& where) {
  if (context == nullptr) {
    throw std::bad_alloc();  // hiredis returns no context only when out of memory
  }
  std::string detail = context->errstr[0] != '\0' ? context->errstr : "connection lost";
  // A socket timeout surfaces as EAGAIN's text.
  if (context->err == REDIS_ERR_IO && detail.find("temporarily unavailable") != std::string::npos) {
    detail = "timed out";
  }
  throw ConnectionError(what + " on " + where + ": " + detail);
}

void throw_if_error_reply(const redisReply* reply, const std::string& what) {
  if (reply->type != REDIS_REPLY_ERROR) {
    return;
  }
  const std::string text(reply->str, reply->len);
  auto starts_with = [&](const char* prefix) { return text.rfind(prefix, 0) == 0; };
  if (starts_with("NOAUTH") || starts_with("WRONGPASS") || starts_with("ERR invalid password") ||
      starts_with("ERR AUTH") || starts_with("ERR Client sent AUTH")) {
    throw AuthError(what + ": " + text);
  }
  throw ProtocolError(what + ": " + text);
}

}  // namespace dlock
