// A direct hiredis connection, for the little the C ABI does not expose: a
// lock's holders and counters (dlock status) and the per-period attempts
// counter and hold (dlock run --hold-after-success/--max-attempts).
#pragma once

#include <memory>
#include <string>
#include <vector>

struct redisContext;
struct redisReply;

namespace dlock_cli {

struct ReplyDeleter {
  void operator()(redisReply* reply) const;
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

class RedisConnection {
 public:
  // `url` has already been accepted by dlock_client_open(), so it is well formed.
  explicit RedisConnection(const std::string& url);
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Runs EVAL `script` with `keys` and `args`; throws a Failure for an error.
  Reply eval(const std::string& script, const std::vector<std::string>& keys,
             const std::vector<std::string>& args);

 private:
  Reply command(const std::vector<std::string>& argv, const std::string& what);

  redisContext* context_ = nullptr;
};

// Redisson's derived key names: "<prefix>:{<name>}", or "<prefix>:<name>"
// when the name already carries a hash tag, so they share the lock's slot.
std::string derived_key(const std::string& prefix, const std::string& name);

}  // namespace dlock_cli
