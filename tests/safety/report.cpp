#include "report.hpp"

#include <cstdio>
#include <ctime>
#include <sstream>

namespace dlock_safety {
namespace {

std::string claim_name(Claim claim) {
  switch (claim) {
    case Claim::safe:
      return "safe";
    case Claim::safe_with_fencing:
      return "safe with fencing";
    case Claim::known_unsafe:
      return "known-unsafe";
    case Claim::not_applicable:
      return "n/a";
  }
  return "?";
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return text;
}

}  // namespace

std::string markdown_report(const std::vector<CellResult>& results,
                            const std::vector<std::string>& phase_errors, const std::string& command,
                            const std::string& mode, double seconds) {
  std::size_t operations = 0;
  std::size_t broken = 0;
  std::size_t flagged = 0;
  for (const CellResult& result : results) {
    operations += result.operations;
    broken += result.breaks_claim() ? 1 : 0;
    flagged += result.expected.claim == Claim::known_unsafe && result.violations + result.fenced > 0 ? 1 : 0;
  }
  std::ostringstream text;
  char duration[32];
  std::snprintf(duration, sizeof duration, "%.0f", seconds);
  text << "Run `" << command << "` (" << mode << " mode), " << utc_now() << ", " << duration
       << " s: " << results.size() << " primitive x fault cells, " << operations << " operations checked, "
       << broken << " claimed-safe cells with a violation, " << flagged << " known-unsafe cells flagged.\n\n";
  for (const std::string& error : phase_errors) text << "- **Phase not run**: " << error << "\n";
  if (!phase_errors.empty()) text << "\n";
  text << "| primitive | fault | claim | operations | violations | fenced overlaps | told lost | verdict | "
          "what the checker saw |\n"
       << "|---|---|---|---:|---:|---:|---:|---|---|\n";
  for (const CellResult& result : results) {
    text << "| " << primitive_name(result.primitive) << " | " << fault_name(result.fault) << " | "
         << claim_name(result.expected.claim) << " | " << result.operations << " | " << result.violations
         << " | " << result.fenced << " | " << result.told_lost << " | " << result.verdict() << " | "
         << result.detail;
    if (!result.expected.reason.empty()) text << " (" << result.expected.reason << ")";
    text << " |\n";
  }
  return text.str();
}

}  // namespace dlock_safety
