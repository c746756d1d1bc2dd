#include "redis_link.hpp"

#include <sstream>
#include <stdexcept>

#include "monotonic.hpp"

namespace dlock_bench {

void require_reply(const redisReply* reply, redisContext* context, std::string_view what) {
  if (reply == nullptr) {
    throw std::runtime_error(std::string(what) + ": " + (context->err != 0 ? context->errstr : "no reply"));
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    throw std::runtime_error(std::string(what) + ": " + std::string(reply->str, reply->len));
  }
}

RedisLink::RedisLink(const Endpoint& endpoint)
    : context_(redisConnect(endpoint.host.c_str(), endpoint.port), redisFree) {
  if (!context_) throw std::runtime_error("out of memory connecting to Redis");
  if (context_->err != 0) {
    throw std::runtime_error("connect " + endpoint.host + ":" + std::to_string(endpoint.port) + ": " +
                             context_->errstr);
  }
  if (!endpoint.password.empty()) {
    if (endpoint.user.empty()) {
      command({"AUTH", endpoint.password});
    } else {
      command({"AUTH", endpoint.user, endpoint.password});
    }
  }
  if (endpoint.db != 0) command({"SELECT", std::to_string(endpoint.db)});
}

Reply RedisLink::command(const std::vector<std::string_view>& argv) {
  std::vector<const char*> words;
  std::vector<size_t> lengths;
  for (std::string_view word : argv) {
    words.push_back(word.data());
    lengths.push_back(word.size());
  }
  Reply reply(static_cast<redisReply*>(
      redisCommandArgv(context_.get(), static_cast<int>(argv.size()), words.data(), lengths.data())));
  require_reply(reply.get(), context_.get(), argv.empty() ? "command" : argv.front());
  return reply;
}

InfoFields RedisLink::info(const char* section) {
  const Reply reply = command({"INFO", section});
  InfoFields fields;
  std::istringstream lines(std::string(reply->str, reply->len));
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t colon = line.find(':');
    if (line.empty() || line[0] == '#' || colon == std::string::npos) continue;
    fields[line.substr(0, colon)] = line.substr(colon + 1);
  }
  return fields;
}

int64_t RedisLink::ping_round_trip_ns(int samples) {
  std::vector<int64_t> round_trips;
  for (int i = 0; i < samples; ++i) {
    const int64_t sent = monotonic_ns();
    command({"PING"});
    round_trips.push_back(monotonic_ns() - sent);
  }
  return percentile(round_trips, 50);
}

}  // namespace dlock_bench
