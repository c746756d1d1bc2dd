#include "script.hpp"

#include <hiredis/hiredis.h>

#include "error.hpp"
#include "lua_scripts.hpp"

namespace dlock {
namespace {

bool is_noscript(const redisReply* reply) {
  return reply->type == REDIS_REPLY_ERROR &&
         std::string_view(reply->str, reply->len).rfind("NOSCRIPT", 0) == 0;
}

}  // namespace

Script::Call::Call(std::string sha, std::initializer_list<std::string_view> keys,
                   std::initializer_list<std::string_view> args)
    : sha_(std::move(sha)), numkeys_(std::to_string(keys.size())) {
  argv_.reserve(3 + keys.size() + args.size());
  argv_.push_back("EVALSHA");
  argv_.push_back(sha_);
  argv_.push_back(numkeys_);
  argv_.insert(argv_.end(), keys);
  argv_.insert(argv_.end(), args);
}

Argv Script::Call::with_source(std::string_view source) const {
  Argv argv = argv_;
  argv[0] = "EVAL";
  argv[1] = source;
  return argv;
}

std::string Script::loaded_sha(Connection& connection) {
  {
    std::lock_guard<std::mutex> lock(sha_mutex_);
    if (!sha_.empty()) return sha_;
  }
  Reply reply = connection.command({"SCRIPT", "LOAD", source_});
  throw_if_error_reply(reply.get(), std::string("SCRIPT LOAD ") + name_);
  if (reply->type != REDIS_REPLY_STRING) {
    throw ProtocolError(std::string("SCRIPT LOAD ") + name_ + ": expected a SHA1");
  }
  std::lock_guard<std::mutex> lock(sha_mutex_);
  sha_.assign(reply->str, reply->len);
  return sha_;
}

Reply Script::finish(Connection& connection, const Call& call, Reply reply) {
  if (is_noscript(reply.get())) {
    reply = connection.command(call.with_source(source_));
  }
  throw_if_error_reply(reply.get(), std::string("script ") + name_);
  return reply;
}

Reply Script::run(Connection& connection, std::initializer_list<std::string_view> keys,
                  std::initializer_list<std::string_view> args) {
  const Call evalsha(loaded_sha(connection), keys, args);
  return finish(connection, evalsha, connection.command(evalsha.argv()));
}

Script& Scripts::acquire() {
  static Script script("acquire", lua::acquire);
  return script;
}
Script& Scripts::release() {
  static Script script("release", lua::release);
  return script;
}
Script& Scripts::renew() {
  static Script script("renew", lua::renew);
  return script;
}
Script& Scripts::force_release() {
  static Script script("force_release", lua::force_release);
  return script;
}

}  // namespace dlock
