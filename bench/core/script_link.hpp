// One bare hiredis connection that loads scripts and sends EVALSHA: what the
// benchmark's reference loops (dlock's scripts, Redisson's scripts) share.
// No std::vector and no copied reply per call: a reference pays only for
// hiredis itself.
#pragma once

#include <hiredis/hiredis.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

#include "server_link.hpp"

namespace dlock_bench {

class ScriptLink {
 public:
  explicit ScriptLink(const dlock::ClientConfig& server) : link_(connect(server)) {}

  struct ReplyDeleter {
    void operator()(redisReply* reply) const noexcept { freeReplyObject(reply); }
  };
  using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

  // SCRIPT LOAD; returns the script's SHA1.
  std::string load(const char* script);
  // Up to 16 words; throws std::runtime_error on an I/O or an error reply.
  Reply evalsha(std::initializer_list<std::string_view> argv);

 private:
  RedisConnection link_;
};

// A random UUID, as a client id, so that owners in different processes differ
// and keys and fields weigh what a real client's do.
std::string random_uuid();

}  // namespace dlock_bench
