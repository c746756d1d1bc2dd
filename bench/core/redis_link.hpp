// The benchmark's own blocking hiredis connection: for the reference loop,
// the round-trip probe and the server's counters.
#pragma once

#include <hiredis/hiredis.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "endpoint.hpp"

namespace dlock_bench {

struct ReplyDeleter {
  void operator()(redisReply* reply) const noexcept { freeReplyObject(reply); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

// "field:value" lines of one INFO section.
using InfoFields = std::map<std::string, std::string>;

class RedisLink {
 public:
  // Connects (and runs AUTH/SELECT as the endpoint says). Throws
  // std::runtime_error when the server cannot be reached.
  explicit RedisLink(const Endpoint& endpoint);

  // One command and its reply; throws std::runtime_error on an I/O failure or
  // an error reply.
  Reply command(const std::vector<std::string_view>& argv);

  InfoFields info(const char* section);

  // Median time of a PING round trip over `samples` sequential PINGs.
  int64_t ping_round_trip_ns(int samples);

  redisContext* context() const { return context_.get(); }

 private:
  std::unique_ptr<redisContext, void (*)(redisContext*)> context_;
};

// Throws std::runtime_error unless `reply` is present and not an error.
void require_reply(const redisReply* reply, redisContext* context, std::string_view what);

}  // namespace dlock_bench
