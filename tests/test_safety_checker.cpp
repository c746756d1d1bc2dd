// The checker and the fenced store must be able to fail, or the contention and
// fault tests prove nothing.
#include <gtest/gtest.h>

#include "fenced_store.hpp"
#include "safety_checker.hpp"
#include "section_log.hpp"
#include "temp_dir.hpp"

namespace dlock_test {
namespace {

Section section(uint64_t token, const std::string& owner, int64_t start, int64_t end) {
  Section s;
  s.token = token;
  s.owner = owner;
  s.start_ns = start;
  s.end_ns = end;
  s.write_accepted = true;
  return s;
}

TEST(SafetyChecker, AcceptsDisjointSectionsWithRisingTokens) {
  const SafetyReport report =
      check_sections({section(3, "b", 200, 300), section(1, "a", 0, 100), section(4, "a", 300, 400)});
  EXPECT_TRUE(report.clean()) << report.summary();
  EXPECT_EQ(report.sections, 3u);
}

TEST(SafetyChecker, FlagsOverlappingOwners) {
  const SafetyReport report = check_sections({section(1, "a", 0, 100), section(2, "b", 50, 150)});
  EXPECT_EQ(report.overlaps, 1u) << report.summary();
  EXPECT_FALSE(report.clean());
}

TEST(SafetyChecker, FlagsASectionInsideAnother) {
  const SafetyReport report =
      check_sections({section(1, "a", 0, 1000), section(2, "b", 100, 200), section(3, "c", 300, 400)});
  EXPECT_EQ(report.overlaps, 2u) << report.summary();
}

TEST(SafetyChecker, SameOwnerSectionsDoNotOverlapThemselves) {
  const SafetyReport report = check_sections({section(1, "a", 0, 100), section(2, "a", 50, 150)});
  EXPECT_EQ(report.overlaps, 0u) << report.summary();
}

TEST(SafetyChecker, FlagsTokensNotRisingInGrantOrder) {
  const SafetyReport falling = check_sections({section(5, "a", 0, 100), section(4, "b", 200, 300)});
  EXPECT_EQ(falling.token_order_violations, 1u) << falling.summary();
  const SafetyReport repeated = check_sections({section(5, "a", 0, 100), section(5, "b", 200, 300)});
  EXPECT_EQ(repeated.token_order_violations, 1u) << repeated.summary();
}

TEST(SectionLog, RoundTripsThroughItsFile) {
  TempDir dir;
  Section written = section(7, "123.4", 10, 20);
  written.release_status = -4;
  SectionLog(dir.file("log")).append(written);
  SectionLog(dir.file("log")).append(section(8, "123.5", 30, 40));
  const std::vector<Section> sections = SectionLog::read(dir.file("log"));
  ASSERT_EQ(sections.size(), 2u);
  EXPECT_EQ(sections[0].token, 7u);
  EXPECT_EQ(sections[0].owner, "123.4");
  EXPECT_EQ(sections[0].start_ns, 10);
  EXPECT_EQ(sections[0].end_ns, 20);
  EXPECT_TRUE(sections[0].write_accepted);
  EXPECT_EQ(sections[0].release_status, -4);
  EXPECT_EQ(sections[1].token, 8u);
}

TEST(FencedStore, RejectsAndCountsStaleTokens) {
  TempDir dir;
  const FencedStore store(dir.file("store"));
  EXPECT_EQ(store.read(), 0);
  EXPECT_TRUE(store.write(5, 1));
  EXPECT_TRUE(store.write(5, 2)) << "the current token may write again";
  EXPECT_FALSE(store.write(4, 99));
  EXPECT_TRUE(store.write(9, 3));
  const FencedStoreState state = store.state();
  EXPECT_EQ(state.value, 3);
  EXPECT_EQ(state.highest_token, 9u);
  EXPECT_EQ(state.accepted_writes, 3);
  EXPECT_EQ(state.stale_rejections, 1);
}

}  // namespace
}  // namespace dlock_test
