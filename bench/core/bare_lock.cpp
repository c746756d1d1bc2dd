#include "bare_lock.hpp"

#include <stdexcept>

#include "backends/redis/lock_ops/lock_lua.hpp"
#include "backends/redis/lock_ops/lock_resource.hpp"
#include "backends/redis/net/composed_script.hpp"
#include "dlock.h"

namespace dlock_bench {
namespace {

// The release latch lives twice the core's default command timeout, as the core's does.
int64_t release_latch_ms() {
  return dlock::ClientConfig{}.command_timeout_ms * 2;
}

}  // namespace

BareLock::BareLock(const dlock::ClientConfig& server, const std::string& name, int64_t lease_ms)
    : client_id_(random_uuid()),
      link_(server),
      acquire_sha_(link_.load(dlock::ComposedScript::source(dlock::LockScripts::acquire_prelude(),
                                                            {dlock::lua::lock::acquire})
                                  .c_str())),
      release_sha_(link_.load(dlock::ComposedScript::source(dlock::LockScripts::release_prelude(),
                                                            {dlock::lua::lock::release})
                                  .c_str())),
      keys_(name),
      lease_(std::to_string(lease_ms)),
      field_(client_id_ + ":" + std::to_string(dlock_thread_owner())),
      latch_(keys_.latch + ":" + field_),
      grant_(keys_.owner_grant(field_)),
      request_prefix_(client_id_ + ":"),
      latch_ms_(std::to_string(release_latch_ms())),
      yield_ms_(std::to_string(dlock::ClientConfig{}.release_yield_ms)) {}

std::string BareLock::next_request() {
  return request_prefix_ + std::to_string(++requests_);
}

BareLock::Attempt BareLock::try_acquire() {
  const std::string request = next_request();
  const ScriptLink::Reply reply =
      link_.evalsha({"EVALSHA", acquire_sha_, "7", keys_.name, keys_.counter, latch_, keys_.turn,
                     keys_.waiting, grant_, keys_.deadlines, lease_, field_, request, "0"});
  if (reply->type == REDIS_REPLY_INTEGER) return {true, reply->integer};
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 1) {
    throw std::runtime_error("reference acquire: unexpected reply");
  }
  return {false, reply->element[0]->integer};
}

void BareLock::release() {
  const std::string request = next_request();
  const ScriptLink::Reply reply =
      link_.evalsha({"EVALSHA", release_sha_, "7", keys_.name, keys_.channel, latch_, keys_.turn,
                     keys_.waiting, grant_, keys_.deadlines, field_, latch_ms_, request, yield_ms_});
  if (reply->type != REDIS_REPLY_INTEGER || reply->integer != 1) {
    throw std::runtime_error("reference release: the caller did not hold the lock");
  }
}

}  // namespace dlock_bench
