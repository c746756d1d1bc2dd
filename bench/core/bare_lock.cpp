#include "bare_lock.hpp"

#include <cstdio>
#include <random>
#include <stdexcept>

#include "dlock.h"
#include "primitives/lock/lock_lua.hpp"

namespace dlock_bench {
namespace {

std::string random_uuid() {
  std::random_device entropy;
  char text[37];
  std::snprintf(text, sizeof text, "%08x-%04x-4%03x-%04x-%04x%08x", entropy(), entropy() & 0xffff,
                entropy() & 0xfff, (entropy() & 0x3fff) | 0x8000, entropy() & 0xffff, entropy());
  return text;
}

// The release latch lives twice the core's default command timeout, as the core's does.
int64_t release_latch_ms() {
  return dlock::ClientConfig{}.command_timeout_ms * 2;
}

}  // namespace

BareLock::BareLock(const dlock::ClientConfig& server, const std::string& name, int64_t lease_ms)
    : client_id_(random_uuid()),
      link_(connect(server)),
      acquire_sha_(load(dlock::lua::lock::acquire)),
      release_sha_(load(dlock::lua::lock::release)),
      keys_(name),
      latch_prefix_(keys_.latch + ":" + client_id_ + ":"),
      lease_(std::to_string(lease_ms)),
      field_(client_id_ + ":" + std::to_string(dlock_thread_owner())),
      latch_ms_(std::to_string(release_latch_ms())) {}

std::string BareLock::load(const char* script) {
  return checked(link_, {"SCRIPT", "LOAD", script}).str;
}

// No std::vector and no copied reply per call: the reference pays only for
// hiredis itself.
BareLock::Reply BareLock::evalsha(std::initializer_list<std::string_view> argv) {
  const char* words[8];
  size_t lengths[8];
  int count = 0;
  for (std::string_view word : argv) {
    words[count] = word.data();
    lengths[count++] = word.size();
  }
  redisContext* context = link_.hiredis();
  Reply reply(static_cast<redisReply*>(redisCommandArgv(context, count, words, lengths)));
  if (!reply)
    throw std::runtime_error(std::string("EVALSHA: ") + (context->err != 0 ? context->errstr : "no reply"));
  if (reply->type == REDIS_REPLY_ERROR)
    throw std::runtime_error("EVALSHA: " + std::string(reply->str, reply->len));
  return reply;
}

BareLock::Attempt BareLock::try_acquire() {
  const Reply reply = evalsha({"EVALSHA", acquire_sha_, "2", keys_.name, keys_.counter, lease_, field_});
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) {
    throw std::runtime_error("reference acquire: unexpected reply");
  }
  return {reply->element[0]->integer == 1, reply->element[1]->integer};
}

void BareLock::release() {
  const std::string latch = latch_prefix_ + std::to_string(++requests_);
  const Reply reply =
      evalsha({"EVALSHA", release_sha_, "3", keys_.name, keys_.channel, latch, field_, latch_ms_});
  if (reply->type != REDIS_REPLY_INTEGER || reply->integer != 1) {
    throw std::runtime_error("reference release: the caller did not hold the lock");
  }
}

}  // namespace dlock_bench
