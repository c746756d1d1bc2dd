#include "backends/redis/net/script.hpp"

#include "common/error.hpp"

namespace dlock {
namespace {

bool is_noscript(const ReplyView& reply) {
  return reply.error_text().substr(0, 8) == "NOSCRIPT";
}

// The scripts publish as redis.call('publish', channel, message).
std::string with_sharded_publish(std::string source) {
  constexpr std::string_view plain = "redis.call('publish',";
  constexpr std::string_view sharded = "redis.call('spublish',";
  for (std::size_t at = source.find(plain); at != std::string::npos; at = source.find(plain, at)) {
    source.replace(at, plain.size(), sharded);
    at += sharded.size();
  }
  return source;
}

}  // namespace

Script::Script(const char* name, std::string source)
    : name_(name), plain_{std::move(source), {}}, sharded_{with_sharded_publish(plain_.source), {}} {}

Script::Variant& Script::variant(const Connection& connection) {
  return connection.sharded_pubsub() ? sharded_ : plain_;
}

Script::Call::Call(std::string sha, const Argv& keys, const Argv& args)
    : sha_(std::move(sha)), numkeys_(std::to_string(keys.size())) {
  argv_.reserve(3 + keys.size() + args.size());
  argv_.push_back("EVALSHA");
  argv_.push_back(sha_);
  argv_.push_back(numkeys_);
  argv_.insert(argv_.end(), keys.begin(), keys.end());
  argv_.insert(argv_.end(), args.begin(), args.end());
}

Argv Script::Call::with_source(std::string_view source) const {
  Argv argv = argv_;
  argv[0] = "EVAL";
  argv[1] = source;
  return argv;
}

std::string Script::loaded_sha(Connection& connection) {
  Variant& loaded = variant(connection);
  {
    std::lock_guard<std::mutex> lock(sha_mutex_);
    if (!loaded.sha.empty()) return loaded.sha;
  }
  const Reply reply = connection.command({"SCRIPT", "LOAD", loaded.source});
  const std::string_view sha = reply.text(std::string("SCRIPT LOAD ") + name_);
  std::lock_guard<std::mutex> lock(sha_mutex_);
  loaded.sha.assign(sha);
  return loaded.sha;
}

Reply Script::finish(Connection& connection, const Call& call, Reply reply) {
  if (is_noscript(reply)) {
    reply = connection.command(call.with_source(variant(connection).source));
  }
  reply.throw_if_error(std::string("script ") + name_);
  return reply;
}

Reply Script::run(Connection& connection, const Argv& keys, const Argv& args) {
  const Call evalsha(loaded_sha(connection), keys, args);
  return finish(connection, evalsha, connection.command(evalsha.argv()));
}

}  // namespace dlock
