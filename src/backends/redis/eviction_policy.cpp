#include "backends/redis/eviction_policy.hpp"

#include <optional>
#include <string>
#include <string_view>

#include "backends/redis/redis_session.hpp"
#include "common/log.hpp"

namespace dlock {
namespace {

// CONFIG may be denied by an ACL or renamed away on managed servers.
std::optional<std::string> policy_from_config(Connection& connection) {
  const Reply reply = connection.command({"CONFIG", "GET", "maxmemory-policy"});
  if (reply.is_error() || reply.array_size("CONFIG GET maxmemory-policy") < 2) return std::nullopt;
  return std::string(reply.element(1).text("CONFIG GET maxmemory-policy"));
}

std::optional<std::string> policy_from_info(Connection& connection) {
  const Reply reply = connection.command({"INFO", "memory"});
  if (reply.is_error()) return std::nullopt;
  const std::string_view info = reply.text("INFO memory");
  constexpr std::string_view field = "maxmemory_policy:";
  const std::size_t start = info.find(field);
  if (start == std::string_view::npos) return std::nullopt;
  const std::size_t value = start + field.size();
  return std::string(info.substr(value, info.find_first_of("\r\n", value) - value));
}

std::string risk_of(const std::string& policy) {
  if (policy.rfind("allkeys-", 0) == 0) return "it may evict lock keys under memory pressure";
  if (policy.rfind("volatile-", 0) == 0) {
    return "it evicts keys with a TTL first under memory pressure, and every lock key has one";
  }
  return "keys may be evicted under memory pressure";
}

}  // namespace

void warn_about_eviction_policy(RedisSession& session) noexcept {
  const std::string& server = session.describe();
  try {
    const std::optional<std::string> policy = session.execute({}, [](Connection& connection) {
      std::optional<std::string> found = policy_from_config(connection);
      return found ? found : policy_from_info(connection);
    });
    if (!policy) {
      if (log::enabled(DLOCK_LOG_DEBUG)) {
        log::emit(DLOCK_LOG_DEBUG, "cannot read maxmemory-policy of " + server +
                                       " (CONFIG GET and INFO memory refused); eviction not checked");
      }
    } else if (*policy != "noeviction" && log::enabled(DLOCK_LOG_WARN)) {
      log::emit(DLOCK_LOG_WARN,
                server + " has maxmemory-policy " + *policy + ": " + risk_of(*policy) +
                    ", and an evicted lock is silently free; set maxmemory-policy noeviction");
    }
  } catch (const std::exception& error) {
    if (log::enabled(DLOCK_LOG_DEBUG)) {
      log::emit(DLOCK_LOG_DEBUG, "cannot read maxmemory-policy of " + server + ": " + error.what());
    }
  }
}

}  // namespace dlock
