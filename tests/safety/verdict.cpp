#include "verdict.hpp"

#include <sstream>

#include "dlock.h"
#include "permit_checker.hpp"
#include "rw_safety_checker.hpp"
#include "safety_checker.hpp"
#include "section_log.hpp"

namespace dlock_safety {
namespace {

using dlock_test::Section;

std::size_t count_lost(const std::vector<Section>& sections) {
  std::size_t lost = 0;
  for (const Section& section : sections) lost += section.release_status == DLOCK_E_LOST ? 1 : 0;
  return lost;
}

void judge_exclusive(CellResult& result, const std::vector<Section>& sections, bool tokens) {
  const dlock_test::SafetyReport report = dlock_test::check_sections(sections);
  result.violations += report.overlaps - report.fenced_overlaps;
  result.fenced += report.fenced_overlaps;
  if (tokens) result.violations += report.token_order_violations;
  std::ostringstream detail;
  detail << report.overlaps << " overlaps (" << report.fenced_overlaps << " fenced)";
  if (tokens) detail << ", " << report.token_order_violations << " token order violations";
  for (const std::string& example : report.examples) {
    if (tokens || example.rfind("overlap", 0) == 0) {  // without tokens, their order means nothing
      detail << "; e.g. " << example;
      break;
    }
  }
  result.detail += (result.detail.empty() ? "" : "; ") + detail.str();
}

void judge_rwlock(CellResult& result, const std::vector<Section>& sections) {
  const dlock_test::RwSafetyReport report = dlock_test::check_rw_sections(sections);
  result.violations += report.writers.overlaps - report.writers.fenced_overlaps +
                       report.writers.token_order_violations + report.read_write_overlaps -
                       report.fenced_read_write_overlaps + report.token_order_violations;
  result.fenced += report.writers.fenced_overlaps + report.fenced_read_write_overlaps;
  std::ostringstream detail;
  detail << report.writers.overlaps << " write/write overlaps (" << report.writers.fenced_overlaps
         << " fenced), " << report.read_write_overlaps << " read/write overlaps ("
         << report.fenced_read_write_overlaps << " fenced), "
         << report.writers.token_order_violations + report.token_order_violations
         << " token order violations, " << report.shared_reads << " shared reads";
  result.detail = detail.str();
}

void judge_permits(CellResult& result, const std::vector<Section>& sections, int permits) {
  result.violations = static_cast<std::size_t>(dlock_test::sections_over_permits(sections, permits));
  result.detail = "at most " + std::to_string(dlock_test::max_concurrent_sections(sections)) +
                  " holders of " + std::to_string(permits) + " permits";
}

// A round is checkable when its three count-downs returned DLOCK_OK; its
// waiter must not have returned "open" before the third one was sent.
void judge_latch(CellResult& result, const std::vector<Section>& rounds) {
  std::size_t unchecked = 0;
  for (const Section& round : rounds) {
    if (round.release_status != DLOCK_OK) continue;
    if (!round.write_accepted) {
      ++unchecked;
    } else if (round.end_ns < round.start_ns) {
      ++result.violations;
    }
  }
  result.detail = std::to_string(result.violations) + " waiters released before the count reached zero, " +
                  std::to_string(result.told_lost) + " told the latch was lost, " +
                  std::to_string(unchecked) + " rounds with a failed count-down (not judged)";
}

}  // namespace

bool CellResult::breaks_claim() const {
  switch (expected.claim) {
    case Claim::safe:
      return violations + fenced > 0;
    case Claim::safe_with_fencing:
      return violations > 0;
    default:
      return false;
  }
}

std::string CellResult::verdict() const {
  std::string text;
  switch (expected.claim) {
    case Claim::safe:
      text = breaks_claim() ? "**VIOLATION**" : "ok";
      break;
    case Claim::safe_with_fencing:
      text = breaks_claim() ? "**VIOLATION**"
                            : (fenced > 0 ? "ok: every overlap refused by the fenced store" : "ok");
      break;
    case Claim::known_unsafe:
      text = violations + fenced > 0 ? "flagged (known-unsafe, expected)" : "known-unsafe, not hit this run";
      break;
    case Claim::not_applicable:
      return "n/a";
  }
  return reached_target ? text : text + ", stalled before the planned grants";
}

CellResult check_cell(Primitive primitive, Fault fault, const CellLogs& logs) {
  CellResult result;
  result.primitive = primitive;
  result.fault = fault;
  result.expected = expectation(primitive, fault);
  std::vector<std::vector<Section>> per_log;
  for (const std::string& path : logs.paths) per_log.push_back(dlock_test::SectionLog::read(path));
  if (per_log.empty()) return result;
  result.operations = per_log.front().size();
  result.told_lost = count_lost(per_log.front());
  switch (primitive) {
    case Primitive::lock:
    case Primitive::fair_lock:
    case Primitive::election:
      judge_exclusive(result, per_log.front(), true);
      break;
    case Primitive::rwlock:
      judge_rwlock(result, per_log.front());
      break;
    case Primitive::semaphore:
    case Primitive::permits:
      judge_permits(result, per_log.front(), logs.permits);
      break;
    case Primitive::latch:
      judge_latch(result, per_log.front());
      break;
    case Primitive::multilock:
    case Primitive::redlock:
      // Neither hands out a token through the C API: overlaps only.
      for (const auto& sections : per_log) judge_exclusive(result, sections, false);
      break;
  }
  return result;
}

}  // namespace dlock_safety
