#include "grant_log.hpp"

#include <algorithm>
#include <fstream>

namespace dlock_zk_bench {

std::vector<Grant> read_grants(const std::vector<std::string>& paths) {
  std::vector<Grant> grants;
  for (const std::string& path : paths) {
    std::ifstream file(path);
    Grant grant;
    while (file >> grant.acquired_ns >> grant.released_ns >> grant.owner) grants.push_back(grant);
  }
  std::sort(grants.begin(), grants.end(),
            [](const Grant& a, const Grant& b) { return a.acquired_ns < b.acquired_ns; });
  return grants;
}

Handoffs handoffs(const std::vector<Grant>& grants) {
  Handoffs found;
  for (std::size_t i = 1; i < grants.size(); ++i) {
    const Grant& before = grants[i - 1];
    const Grant& after = grants[i];
    if (after.acquired_ns < before.released_ns) ++found.overlaps;
    if (after.owner == before.owner) {
      ++found.same_owner_again;
    } else {
      found.ns.push_back(after.acquired_ns - before.released_ns);
    }
  }
  return found;
}

}  // namespace dlock_zk_bench
