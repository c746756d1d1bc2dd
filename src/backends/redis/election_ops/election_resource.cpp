#include "backends/redis/election_ops/election_resource.hpp"

#include "backends/redis/election_ops/election_lua.hpp"
#include "backends/redis/lock_ops/lock_lua.hpp"
#include "backends/redis/net/composed_script.hpp"

namespace dlock {
namespace {

// The lock's acquire (its parts as LockScripts::acquire has them), run as a
// function whose grant announce.lua records.
Script& acquire_script() {
  static ComposedScript script("election_acquire", LockScripts::acquire_prelude(),
                               {"local function acquire_lock()", lua::lock::acquire, "end", lua::election::announce});
  return script.script();
}

}  // namespace

ElectionResource::ElectionResource(const std::string& name, const ClientConfig& config)
    : ElectionResource(ElectionKeys(name), config) {}

ElectionResource::ElectionResource(ElectionKeys keys, const ClientConfig& config)
    : LockResource(keys.lock, config), election_keys(std::move(keys)) {}

void ElectionResource::set_value(std::string value) const {
  value_.set(std::move(value));
}

Reply ElectionResource::run_acquire(Connection& connection, const Argv& lock_keys, const Argv& lock_args) const {
  const std::string value = value_.get();
  Argv keys = lock_keys;
  keys.insert(keys.end(), {election_keys.leader, election_keys.leaders});
  Argv args = lock_args;
  args.push_back(value);
  return acquire_script().run(connection, keys, args);
}

}  // namespace dlock
