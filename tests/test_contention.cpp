// A1: many threads in several processes on one name, judged by the safety checker
// and the fenced store; and the canary proving the checker can fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "contention_run.hpp"
#include "dlock.h"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "safety_checker.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

class Contention : public RedisFixture {};

long long count_if_accepted(const std::vector<Section>& sections) {
  return std::count_if(sections.begin(), sections.end(), [](const Section& s) { return s.write_accepted; });
}

TEST_F(Contention, ProcessesAndThreadsNeverOverlap) {
  ContentionSetup setup;
  setup.url = server().url();
  setup.processes = 4;
  setup.threads = 2;
  setup.cycles = 50;
  ContentionRun run(setup);
  const std::string failures = run.wait(milliseconds(150000));
  ASSERT_EQ(failures, "");

  const std::vector<Section> sections = run.sections();
  ASSERT_EQ(sections.size(), static_cast<size_t>(setup.processes * setup.threads * setup.cycles));
  const SafetyReport report = check_sections(sections);
  EXPECT_TRUE(report.clean()) << report.summary();
  for (const Section& section : sections) {
    EXPECT_EQ(section.release_status, DLOCK_OK) << "owner " << section.owner << " token " << section.token;
  }
  const FencedStoreState store = run.store();
  EXPECT_EQ(store.stale_rejections, 0);
  EXPECT_EQ(store.accepted_writes, count_if_accepted(sections));
  EXPECT_EQ(store.value, static_cast<long long>(sections.size())) << "lost updates";
  EXPECT_FALSE(key_exists(server(), setup.name));
}

// A lease shorter than the critical section lets a second holder in while the first
// still works: the checker must say so, or it cannot be trusted.
TEST_F(Contention, CanaryLeaseShorterThanTheSectionIsFlagged) {
  ContentionSetup setup;
  setup.url = server().url();
  setup.processes = 2;
  setup.threads = 2;
  setup.cycles = 6;
  setup.lease_ms = 30;
  setup.min_sleep_us = 60000;
  setup.max_sleep_us = 90000;
  ContentionRun run(setup);
  const std::string failures = run.wait(milliseconds(60000));
  ASSERT_EQ(failures, "");

  const std::vector<Section> sections = run.sections();
  const SafetyReport report = check_sections(sections);
  EXPECT_GT(report.overlaps, 0u) << "the checker missed the overlaps of an unsafe setup: "
                                 << report.summary();
  EXPECT_TRUE(std::any_of(sections.begin(), sections.end(), [](const Section& s) {
    return s.release_status == DLOCK_E_LOST;
  })) << "holders whose lease ran out were not told";
  const FencedStoreState store = run.store();
  EXPECT_EQ(store.accepted_writes, count_if_accepted(sections));
}

}  // namespace
}  // namespace dlock_test
