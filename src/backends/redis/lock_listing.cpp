#include "backends/redis/lock_listing.hpp"

#include <unordered_set>

#include "backends/redis/redis_session.hpp"
#include "common/error.hpp"

namespace dlock {
namespace {

// MATCH pattern: the prefix with *, ?, [, ] and \ escaped, then *.
std::string match_pattern(const std::string& prefix) {
  std::string pattern;
  for (const char c : prefix) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') pattern += '\\';
    pattern += c;
  }
  return pattern + "*";
}

}  // namespace

std::vector<std::string> list_lock_names(ClientCore& core, const std::string& prefix) {
  core.throw_if_closed();
  const std::string pattern = match_pattern(prefix);
  // SCAN may repeat a name, and a retry on a fresh connection starts a
  // master's scan again, hence the set. In a Cluster each master is scanned.
  std::vector<std::string> names;
  std::unordered_set<std::string> seen;
  redis_session(core).execute_on_every_master([&](Connection& connection) {
    const std::string what = "SCAN for hashes matching '" + pattern + "'";
    std::string cursor = "0";
    do {
      const Reply reply =
          connection.command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000", "TYPE", "hash"});
      if (reply.array_size(what) != 2)
        throw ProtocolError(what + ": expected 2 elements, got " + reply.describe());
      cursor = std::string(reply.element(0).text(what));
      const ReplyView keys = reply.element(1);
      const std::size_t count = keys.array_size(what);
      for (std::size_t i = 0; i < count; ++i) {
        std::string name(keys.element(i).text(what));
        if (seen.insert(name).second) names.push_back(std::move(name));
      }
    } while (cursor != "0");
  });
  return names;
}

}  // namespace dlock
