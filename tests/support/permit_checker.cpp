#include "permit_checker.hpp"

#include <algorithm>
#include <utility>

namespace dlock_test {

int max_concurrent_sections(const std::vector<Section>& sections) {
  // Sweep over the section edges in time order, ends before starts at a tie.
  std::vector<std::pair<int64_t, int>> edges;
  for (const Section& section : sections) {
    edges.emplace_back(section.start_ns, +1);
    edges.emplace_back(section.end_ns, -1);
  }
  std::sort(edges.begin(), edges.end());
  int open = 0;
  int most = 0;
  for (const auto& edge : edges) {
    open += edge.second;
    most = std::max(most, open);
  }
  return most;
}

}  // namespace dlock_test
