#include "redis_inspect.hpp"

#include <sstream>
#include <stdexcept>

namespace dlock_test {
namespace {

std::string hash_tagged(const std::string& name) {
  return name.find('{') == std::string::npos ? "{" + name + "}" : name;
}

RedisReply checked(RedisServer& server, const std::vector<std::string>& argv) {
  RedisReply reply = server.command(argv);
  if (reply.is_error()) throw std::runtime_error(argv.at(0) + " failed: " + reply.str);
  return reply;
}

}  // namespace

std::string fencing_counter_key(const std::string& name) {
  return "redisson_lock_token:" + hash_tagged(name);
}

std::string release_channel(const std::string& name) {
  return "redisson_lock__channel:" + hash_tagged(name);
}

std::map<std::string, std::string> hash_fields(RedisServer& server, const std::string& key) {
  const RedisReply reply = checked(server, {"HGETALL", key});
  std::map<std::string, std::string> fields;
  for (size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
    fields[reply.elements[i].str] = reply.elements[i + 1].str;
  }
  return fields;
}

long long pttl(RedisServer& server, const std::string& key) {
  return checked(server, {"PTTL", key}).integer;
}

bool key_exists(RedisServer& server, const std::string& key) {
  return checked(server, {"EXISTS", key}).integer == 1;
}

std::string string_value(RedisServer& server, const std::string& key) {
  return checked(server, {"GET", key}).str;
}

namespace {

// PUBSUB NUMSUB and SHARDNUMSUB answer [channel, count].
long long subscribers(RedisServer& server, const std::string& subcommand, const std::string& channel) {
  return checked(server, {"PUBSUB", subcommand, channel}).elements.at(1).integer;
}

}  // namespace

long long shard_subscribers(RedisServer& server, const std::string& channel) {
  return subscribers(server, "SHARDNUMSUB", channel);
}

long long classic_subscribers(RedisServer& server, const std::string& channel) {
  return subscribers(server, "NUMSUB", channel);
}

long long shard_subscriber_connections(RedisServer& server) {
  std::istringstream clients(checked(server, {"CLIENT", "LIST"}).str);
  long long connections = 0;
  for (std::string line; std::getline(clients, line);) {
    const std::size_t at = line.find(" ssub=");
    if (at != std::string::npos && std::stoll(line.substr(at + 6)) > 0) ++connections;
  }
  return connections;
}

long long command_calls(RedisServer& server, const std::string& command) {
  const std::string stats = checked(server, {"INFO", "commandstats"}).str;
  const std::string prefix = "cmdstat_" + command + ":calls=";
  const size_t at = stats.find(prefix);
  return at == std::string::npos ? 0 : std::stoll(stats.substr(at + prefix.size()));
}

long long renewal_calls(RedisServer& server) {
  return command_calls(server, "evalsha") + command_calls(server, "eval") + command_calls(server, "pexpire");
}

void forge_foreign_holder(RedisServer& server, const std::string& name, const std::string& field,
                          long long lease_ms) {
  checked(server, {"HSET", name, field, "1"});
  checked(server, {"PEXPIRE", name, std::to_string(lease_ms)});
}

long long release_as_foreign_holder(RedisServer& server, const std::string& name) {
  checked(server, {"DEL", name});
  return checked(server, {"PUBLISH", release_channel(name), "0"}).integer;
}

}  // namespace dlock_test
