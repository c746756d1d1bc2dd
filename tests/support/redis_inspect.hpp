#pragma once

#include <map>
#include <string>

#include "redis_server.hpp"

namespace dlock_test {

// The keys and channel of a lock in Redisson's layout (see SPEC.md section 2):
// the hash tag braces are added unless the name already contains '{'.
std::string fencing_counter_key(const std::string& name);
std::string release_channel(const std::string& name);

// Read-only views of server state, for assertions.
std::map<std::string, std::string> hash_fields(RedisServer& server, const std::string& key);
long long pttl(RedisServer& server, const std::string& key);  // -2 absent, -1 no expiry
bool key_exists(RedisServer& server, const std::string& key);
std::string string_value(RedisServer& server, const std::string& key);  // "" when absent
// Subscribers of `channel` on this server: sharded (PUBSUB SHARDNUMSUB, what
// SSUBSCRIBE counts) and classic (PUBSUB NUMSUB, what SUBSCRIBE counts).
long long shard_subscribers(RedisServer& server, const std::string& channel);
long long classic_subscribers(RedisServer& server, const std::string& channel);
// Connections to this server with at least one sharded subscription (CLIENT LIST's ssub=).
long long shard_subscriber_connections(RedisServer& server);
// Calls of one command so far (INFO commandstats), e.g. command_calls(server, "evalsha").
long long command_calls(RedisServer& server, const std::string& command);
// Calls of every command a renewal can use (scripts and PEXPIRE), for "nothing renews" checks.
long long renewal_calls(RedisServer& server);

// Takes the lock as a Redisson client would: a hash field of another client id
// with its re-entry count, and a lease.
void forge_foreign_holder(RedisServer& server, const std::string& name, const std::string& field,
                          long long lease_ms);
// Releases as Redisson does: delete the key, publish 0 on the lock's channel.
// Returns the number of subscribers the message reached.
long long release_as_foreign_holder(RedisServer& server, const std::string& name);

}  // namespace dlock_test
