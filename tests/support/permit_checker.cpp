#include "permit_checker.hpp"

#include <algorithm>
#include <utility>

namespace dlock_test {

namespace {

// The section edges in time order, ends (-1) before starts (+1) at a tie.
std::vector<std::pair<int64_t, int>> edges_in_time_order(const std::vector<Section>& sections) {
  std::vector<std::pair<int64_t, int>> edges;
  for (const Section& section : sections) {
    edges.emplace_back(section.start_ns, +1);
    edges.emplace_back(section.end_ns, -1);
  }
  std::sort(edges.begin(), edges.end());
  return edges;
}

}  // namespace

int max_concurrent_sections(const std::vector<Section>& sections) {
  int open = 0;
  int most = 0;
  for (const auto& edge : edges_in_time_order(sections)) {
    open += edge.second;
    most = std::max(most, open);
  }
  return most;
}

int sections_over_permits(const std::vector<Section>& sections, int permits) {
  int open = 0;
  int over = 0;
  for (const auto& edge : edges_in_time_order(sections)) {
    open += edge.second;
    if (edge.second > 0 && open > permits) ++over;
  }
  return over;
}

}  // namespace dlock_test
