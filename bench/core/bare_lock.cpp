#include "bare_lock.hpp"

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "dlock.h"

namespace dlock_bench {
namespace {

std::string read_script(const std::string& file) {
  const std::string path = std::string(DLOCK_BENCH_LUA_DIR) + "/" + file;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string random_uuid() {
  std::random_device entropy;
  char text[37];
  std::snprintf(text, sizeof text, "%08x-%04x-4%03x-%04x-%04x%08x", entropy(), entropy() & 0xffff,
                entropy() & 0xfff, (entropy() & 0x3fff) | 0x8000, entropy() & 0xffff, entropy());
  return text;
}

}  // namespace

BareLock::BareLock(const Endpoint& endpoint, const std::string& name, int64_t lease_ms)
    : client_id_(random_uuid()),
      link_(endpoint),
      acquire_sha_(load("acquire.lua")),
      release_sha_(load("release.lua")),
      name_(name),
      counter_("redisson_lock_token:{" + name + "}"),
      channel_("redisson_lock__channel:{" + name + "}"),
      latch_prefix_("redisson_unlock_latch:{" + name + "}:" + client_id_ + ":"),
      lease_(std::to_string(lease_ms)),
      field_(client_id_ + ":" + std::to_string(dlock_thread_owner())),
      latch_ms_(std::to_string(release_latch_ms)) {}

std::string BareLock::load(const char* file) {
  const Reply reply = link_.command({"SCRIPT", "LOAD", read_script(file)});
  return std::string(reply->str, reply->len);
}

// No std::vector per call: the reference pays only for hiredis itself.
Reply BareLock::evalsha(std::initializer_list<std::string_view> argv) {
  const char* words[8];
  size_t lengths[8];
  int count = 0;
  for (std::string_view word : argv) {
    words[count] = word.data();
    lengths[count++] = word.size();
  }
  Reply reply(static_cast<redisReply*>(redisCommandArgv(link_.context(), count, words, lengths)));
  require_reply(reply.get(), link_.context(), "EVALSHA");
  return reply;
}

BareLock::Attempt BareLock::try_acquire() {
  const Reply reply = evalsha({"EVALSHA", acquire_sha_, "2", name_, counter_, lease_, field_});
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) {
    throw std::runtime_error("reference acquire: unexpected reply");
  }
  return {reply->element[0]->integer == 1, reply->element[1]->integer};
}

void BareLock::release() {
  const std::string latch = latch_prefix_ + std::to_string(++requests_);
  const Reply reply = evalsha({"EVALSHA", release_sha_, "3", name_, channel_, latch, field_, latch_ms_});
  if (reply->type != REDIS_REPLY_INTEGER || reply->integer != 1) {
    throw std::runtime_error("reference release: the caller did not hold the lock");
  }
}

}  // namespace dlock_bench
