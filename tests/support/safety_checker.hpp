#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "section_log.hpp"

namespace dlock_test {

struct SafetyReport {
  std::size_t sections = 0;
  std::size_t overlaps = 0;  // pairs of different owners' sections that intersect
  // Of those, the pairs where the store refused the older-token section's write:
  // the overlap fencing caught (a holder that paused past its lease).
  std::size_t fenced_overlaps = 0;
  std::size_t token_order_violations = 0;  // a grant whose token is not above the previous grant's
  std::vector<std::string> examples;       // the first few violations, for failure messages

  bool clean() const { return overlaps == 0 && token_order_violations == 0; }
  std::string summary() const;
};

// Judges a run offline, as Jepsen does: sections of different owners must never
// intersect, and fencing tokens must rise strictly in real-time grant (start) order.
SafetyReport check_sections(std::vector<Section> sections);

}  // namespace dlock_test
