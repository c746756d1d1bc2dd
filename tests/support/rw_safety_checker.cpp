#include "rw_safety_checker.hpp"

#include <algorithm>
#include <sstream>

namespace dlock_test {
namespace {

bool is_write(const Section& section) {
  return section.owner.rfind("w:", 0) == 0;
}

bool intersect(const Section& a, const Section& b) {
  return a.start_ns < b.end_ns && b.start_ns < a.end_ns;
}

}  // namespace

std::string RwSafetyReport::summary() const {
  std::ostringstream text;
  text << "writers: " << writers.summary() << "\n"
       << read_write_overlaps << " read/write overlaps, " << shared_reads << " shared reads, "
       << token_order_violations << " read/write token order violations";
  return text.str();
}

RwSafetyReport check_rw_sections(const std::vector<Section>& sections) {
  std::vector<Section> writes;
  std::vector<Section> reads;
  for (const Section& section : sections) (is_write(section) ? writes : reads).push_back(section);
  RwSafetyReport report;
  report.writers = check_sections(writes);
  // In start order, the reads intersecting reads[i] from later on are the ones
  // that start before it ends: a long run's many reads are not paired all with all.
  std::sort(reads.begin(), reads.end(),
            [](const Section& a, const Section& b) { return a.start_ns < b.start_ns; });
  for (std::size_t i = 0; i < reads.size(); ++i) {
    for (std::size_t j = i + 1; j < reads.size() && reads[j].start_ns < reads[i].end_ns; ++j) {
      if (reads[i].owner != reads[j].owner) ++report.shared_reads;
    }
    for (const Section& write : writes) {
      if (intersect(reads[i], write)) {
        ++report.read_write_overlaps;
        if (!write.write_accepted) ++report.fenced_read_write_overlaps;
      } else if ((reads[i].end_ns <= write.start_ns) != (reads[i].token < write.token)) {
        ++report.token_order_violations;
      }
    }
  }
  return report;
}

}  // namespace dlock_test
