#include "redis_connection.hpp"

#include <hiredis/hiredis.h>

#include "failure.hpp"
#include "redis_url.hpp"

namespace dlock_cli {
namespace {

constexpr timeval connect_timeout{2, 0};

}  // namespace

void ReplyDeleter::operator()(redisReply* reply) const { freeReplyObject(reply); }

RedisConnection::RedisConnection(const std::string& url) {
  const RedisAddress address = parse_redis_url(url);
  context_ = address.socket_path.empty()
                 ? redisConnectWithTimeout(address.host.c_str(), address.port, connect_timeout)
                 : redisConnectUnixWithTimeout(address.socket_path.c_str(), connect_timeout);
  const std::string where = address.socket_path.empty()
                                ? address.host + ":" + std::to_string(address.port)
                                : address.socket_path;
  if (!context_ || context_->err) {
    const std::string why = context_ ? context_->errstr : "out of memory";
    redisFree(context_);
    context_ = nullptr;
    throw Failure(exit_code::redis_unavailable, "cannot connect to Redis at " + where + ": " + why);
  }
  redisSetTimeout(context_, timeval{3, 0});
  if (!address.password.empty()) {
    std::vector<std::string> auth{"AUTH"};
    if (!address.user.empty()) auth.push_back(address.user);
    auth.push_back(address.password);
    command(auth, "AUTH");
  }
  if (address.db != 0) command({"SELECT", std::to_string(address.db)}, "SELECT");
}

RedisConnection::~RedisConnection() { redisFree(context_); }

Reply RedisConnection::command(const std::vector<std::string>& argv, const std::string& what) {
  std::vector<const char*> parts;
  std::vector<size_t> lengths;
  for (const std::string& arg : argv) {
    parts.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  Reply reply(static_cast<redisReply*>(
      redisCommandArgv(context_, static_cast<int>(argv.size()), parts.data(), lengths.data())));
  if (!reply) {
    throw Failure(exit_code::redis_unavailable, what + " failed: " + context_->errstr);
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    throw Failure(exit_code::redis_unavailable,
                  what + " failed: " + std::string(reply->str, reply->len));
  }
  return reply;
}

Reply RedisConnection::eval(const std::string& script, const std::vector<std::string>& keys,
                            const std::vector<std::string>& args) {
  std::vector<std::string> argv{"EVAL", script, std::to_string(keys.size())};
  argv.insert(argv.end(), keys.begin(), keys.end());
  argv.insert(argv.end(), args.begin(), args.end());
  return command(argv, "EVAL");
}

std::string derived_key(const std::string& prefix, const std::string& name) {
  if (name.find('{') != std::string::npos) return prefix + ":" + name;
  return prefix + ":{" + name + "}";
}

}  // namespace dlock_cli
