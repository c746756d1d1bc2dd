#include "bare_redisson_lock.hpp"

#include <cinttypes>
#include <cstdio>
#include <random>
#include <stdexcept>

#include "redisson_lua.hpp"

namespace dlock_bench {
namespace {

// Redisson's default unlock latch life: (timeout 3000 ms + retry delay up to
// 2000 ms) x 4 retry attempts (RedissonBaseLock.unlockInnerAsync, BaseConfig).
constexpr int64_t redisson_latch_ms = (3000 + 2000) * 4;

std::string random_hex16() {
  std::random_device entropy;
  char text[17];
  std::snprintf(text, sizeof text, "%08x%08x", entropy(), entropy());
  return text;
}

}  // namespace

BareRedissonLock::BareRedissonLock(const dlock::ClientConfig& server, const std::string& name,
                                   int64_t lease_ms)
    : client_id_(random_uuid()),
      link_(server),
      try_lock_sha_(link_.load(redisson::redisson_try_lock)),
      unlock_sha_(link_.load(redisson::redisson_unlock)),
      keys_(name),
      latch_prefix_(keys_.latch + ":" + random_hex16()),
      lease_(std::to_string(lease_ms)),
      // Redisson's getLockName(threadId): "<client-uuid>:<thread id>".
      field_(client_id_ + ":1"),
      latch_ms_(std::to_string(redisson_latch_ms)) {}

void BareRedissonLock::acquire() {
  const ScriptLink::Reply reply = link_.evalsha({"EVALSHA", try_lock_sha_, "1", keys_.name, lease_, field_});
  if (reply->type != REDIS_REPLY_NIL) throw std::runtime_error("Redisson reference acquire: not granted");
}

void BareRedissonLock::release() {
  char request[17];
  std::snprintf(request, sizeof request, "%016" PRIx64, ++requests_);
  const std::string latch = latch_prefix_ + request;
  const ScriptLink::Reply reply = link_.evalsha({"EVALSHA", unlock_sha_, "3", keys_.name, keys_.channel,
                                                 latch, "0", lease_, field_, "publish", latch_ms_});
  if (reply->type != REDIS_REPLY_INTEGER || reply->integer != 1) {
    throw std::runtime_error("Redisson reference release: the lock was not released");
  }
}

}  // namespace dlock_bench
