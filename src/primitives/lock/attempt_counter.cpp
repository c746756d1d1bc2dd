#include "primitives/lock/attempt_counter.hpp"

#include "backends/redis/lock_ops/lock_resource.hpp"
#include "backends/redis/redis_session.hpp"
#include "common/error.hpp"

namespace dlock {

AttemptCount count_attempt(ClientCore& core, const LockKeys& keys, const std::string& period_id,
                           int64_t expire_ms, int64_t max_attempts) {
  core.throw_if_closed();
  const std::string counter = keys.attempts + ":" + period_id;
  const std::string latch = keys.attempt_latch + ":" + core.request_id();
  const std::string max = std::to_string(max_attempts);
  const std::string expire = std::to_string(expire_ms);
  const std::string window = std::to_string(core.retry_window_ms());
  return redis_session(core).execute(keys.name, [&](Connection& connection) {
    const std::string what = "count an attempt on '" + counter + "'";
    const Reply reply = LockScripts::count_attempt().run(connection, {counter, latch}, {max, expire, window});
    if (reply.array_size(what) != 2)
      throw ProtocolError(what + ": expected 2 elements, got " + reply.describe());
    return AttemptCount{reply.element(0).integer_is_one(what), reply.element(1).integer(what)};
  });
}

}  // namespace dlock
