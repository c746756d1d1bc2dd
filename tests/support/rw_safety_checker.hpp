#pragma once

#include <cstddef>
#include <vector>

#include "safety_checker.hpp"
#include "section_log.hpp"

namespace dlock_test {

struct RwSafetyReport {
  SafetyReport writers;                        // writers among themselves: overlaps and token order
  std::size_t read_write_overlaps = 0;         // a read section that intersects a write section
  std::size_t fenced_read_write_overlaps = 0;  // of those, the ones whose write the store refused
  std::size_t shared_reads = 0;                // pairs of read sections of different owners inside at once
  std::size_t token_order_violations =
      0;  // a read and a write, one after the other, whose tokens do not rise

  bool clean() const { return writers.clean() && read_write_overlaps == 0 && token_order_violations == 0; }
  std::string summary() const;
};

// Judges a read-write run offline: sections logged under owners "w:..." are
// writes, "r:..." reads. A write never intersects any other section; reads
// may intersect each other (counted, to show they do share); tokens rise in
// real-time order between a write and any section wholly before or after it.
RwSafetyReport check_rw_sections(const std::vector<Section>& sections);

}  // namespace dlock_test
