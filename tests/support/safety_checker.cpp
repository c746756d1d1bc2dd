#include "safety_checker.hpp"

#include <algorithm>
#include <sstream>

namespace dlock_test {
namespace {

constexpr std::size_t kMaxExamples = 10;

std::string describe(const Section& section) {
  std::ostringstream text;
  text << "[owner " << section.owner << " token " << section.token << " " << section.start_ns << ".."
       << section.end_ns << "]";
  return text.str();
}

void note(SafetyReport& report, const std::string& example) {
  if (report.examples.size() < kMaxExamples) report.examples.push_back(example);
}

}  // namespace

std::string SafetyReport::summary() const {
  std::ostringstream text;
  text << sections << " sections, " << overlaps << " overlaps, " << token_order_violations
       << " token order violations";
  for (const std::string& example : examples) text << "\n  " << example;
  return text.str();
}

SafetyReport check_sections(std::vector<Section> sections) {
  std::sort(sections.begin(), sections.end(),
            [](const Section& a, const Section& b) { return a.start_ns < b.start_ns; });
  SafetyReport report;
  report.sections = sections.size();
  for (std::size_t i = 0; i < sections.size(); ++i) {
    for (std::size_t j = i + 1; j < sections.size() && sections[j].start_ns < sections[i].end_ns; ++j) {
      if (sections[j].owner == sections[i].owner) continue;
      ++report.overlaps;
      const Section& older = sections[j].token < sections[i].token ? sections[j] : sections[i];
      if (!older.write_accepted) ++report.fenced_overlaps;
      note(report, "overlap " + describe(sections[i]) + " with " + describe(sections[j]));
    }
    if (i > 0 && sections[i].token <= sections[i - 1].token) {
      ++report.token_order_violations;
      note(report, "token not increasing: " + describe(sections[i - 1]) + " then " + describe(sections[i]));
    }
  }
  return report;
}

}  // namespace dlock_test
