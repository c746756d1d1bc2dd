// RedLock over 5 redis-servers: majority grants with a validity, servers down
// or paused, a restart without persistence (the known counter-example, and the
// restart delay that prevents it), contention across processes, loss, bad input.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <thread>

#include "dlock.h"
#include "dlock_handles.hpp"
#include "fenced_store.hpp"
#include "redis_inspect.hpp"
#include "redis_server.hpp"
#include "safety_checker.hpp"
#include "section_log.hpp"
#include "status_assertions.hpp"
#include "temp_dir.hpp"
#include "wait_until.hpp"
#include "worker_launcher.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

constexpr size_t server_count = 5;

// One set of five servers for the file; a test that stops, pauses or empties
// a server puts it back before it ends.
class RedLockTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (size_t i = 0; i < server_count; ++i) servers_.push_back(std::make_unique<RedisServer>());
  }
  static void TearDownTestSuite() { servers_.clear(); }

  void TearDown() override {
    for (auto& server : servers_) server->command({"FLUSHALL"});
  }

  static RedisServer& server(size_t i) { return *servers_[i]; }

  // A client on each server, with a short command timeout so a stopped
  // server's calls end soon after the test.
  struct Side {
    std::vector<ClientHandle> clients;
    std::vector<LockHandle> locks;
    RedLockHandle redlock;
  };
  static Side side(const std::string& name, int64_t watchdog_ms = 0) {
    Side result;
    std::vector<dlock_lock*> members;
    for (size_t i = 0; i < server_count; ++i) {
      const std::string url = server(i).url() + "?command_timeout_ms=500";
      result.clients.push_back(watchdog_ms > 0 ? open_client(url, options_with_watchdog(watchdog_ms))
                                               : open_client(url));
      result.locks.push_back(new_lock(result.clients.back().get(), name));
      members.push_back(result.locks.back().get());
    }
    dlock_redlock* redlock = nullptr;
    require_ok(dlock_redlock_new(members.data(), members.size(), &redlock), "dlock_redlock_new");
    result.redlock.reset(redlock);
    return result;
  }

  static size_t servers_holding(const std::string& name) { return servers_holding_among(server_count, name); }

  // Servers 0..count-1 holding `name`.
  static size_t servers_holding_among(size_t count, const std::string& name) {
    size_t holding = 0;
    for (size_t i = 0; i < count; ++i) {
      if (server(i).command({"EXISTS", name}).integer == 1) ++holding;
    }
    return holding;
  }

  static std::vector<std::unique_ptr<RedisServer>> servers_;
};

std::vector<std::unique_ptr<RedisServer>> RedLockTest::servers_;

struct LostCount {
  std::atomic<int> calls{0};
  static void on_lost(const char*, uint64_t, uint64_t, void* ctx) { static_cast<LostCount*>(ctx)->calls++; }
};

TEST_F(RedLockTest, GrantsOnEveryServerWithAValidityBelowTheLease) {
  Side a = side("rl");
  int64_t validity = 0;
  ASSERT_TRUE(status_is(dlock_redlock_acquire(a.redlock.get(), 0, 10000, &validity), DLOCK_OK));
  EXPECT_GT(validity, 9000);
  EXPECT_LE(validity, 10000 - 102) << "lease - drift (lease/100 + 2 ms) at most";
  EXPECT_EQ(servers_holding("rl"), server_count);
  int64_t later = 0;
  ASSERT_EQ(dlock_redlock_validity(a.redlock.get(), &later), DLOCK_OK);
  EXPECT_LE(later, validity);
  for (size_t i = 0; i < server_count; ++i) {
    EXPECT_LE(later, pttl(server(i), "rl")) << "the caller's view never outlasts server " << i;
  }
  Side b = side("rl");
  EXPECT_TRUE(status_is(dlock_redlock_acquire(b.redlock.get(), 100, 10000, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_EQ(servers_holding("rl"), server_count) << "the refused attempt took nothing of a's";
  ASSERT_TRUE(status_is(dlock_redlock_release(a.redlock.get()), DLOCK_OK));
  EXPECT_EQ(servers_holding("rl"), 0u);
  ASSERT_EQ(dlock_redlock_validity(a.redlock.get(), &later), DLOCK_OK);
  EXPECT_EQ(later, 0);
}

// A 2 ms lease leaves no validity after the drift (2 ms) and any elapsed
// time: every member may grant, and it is still a failure.
TEST_F(RedLockTest, AGrantWithNoValidityLeftIsAFailure) {
  Side a = side("rl-no-validity");
  int64_t validity = -1;
  EXPECT_TRUE(status_is(dlock_redlock_acquire(a.redlock.get(), 0, 2, &validity), DLOCK_NOT_ACQUIRED));
  EXPECT_EQ(validity, -1) << "untouched";
  EXPECT_EQ(servers_holding("rl-no-validity"), 0u);
}

TEST_F(RedLockTest, AWaiterIsWokenByTheReleaseNotTheLease) {
  Side a = side("rl-wake");
  Side b = side("rl-wake");
  ASSERT_EQ(dlock_redlock_acquire(a.redlock.get(), 0, 20000, nullptr), DLOCK_OK);
  auto waiter = std::async(std::launch::async, [&] {
    const int status = dlock_redlock_acquire(b.redlock.get(), 10000, 20000, nullptr);
    const auto acquired_at = Clock::now();
    if (status == DLOCK_OK) dlock_redlock_release(b.redlock.get());
    return std::make_pair(status, acquired_at);
  });
  std::this_thread::sleep_for(milliseconds(300));
  const auto released_at = Clock::now();
  ASSERT_EQ(dlock_redlock_release(a.redlock.get()), DLOCK_OK);
  const auto [status, acquired_at] = waiter.get();
  ASSERT_TRUE(status_is(status, DLOCK_OK));
  EXPECT_LT(acquired_at - released_at, milliseconds(300));
}

TEST_F(RedLockTest, ReentersWithoutARoundTrip) {
  Side a = side("rl-re");
  ASSERT_EQ(dlock_redlock_acquire(a.redlock.get(), 0, -1, nullptr), DLOCK_OK);
  int64_t validity = 0;
  ASSERT_EQ(dlock_redlock_acquire(a.redlock.get(), 0, -1, &validity), DLOCK_OK);
  EXPECT_GT(validity, 0);
  int count = 0;
  ASSERT_EQ(dlock_redlock_hold_count_owner(a.redlock.get(), dlock_thread_owner(), &count), DLOCK_OK);
  EXPECT_EQ(count, 2);
  ASSERT_EQ(dlock_redlock_release(a.redlock.get()), DLOCK_OK);
  EXPECT_EQ(servers_holding("rl-re"), server_count);
  ASSERT_EQ(dlock_redlock_release(a.redlock.get()), DLOCK_OK);
  EXPECT_EQ(servers_holding("rl-re"), 0u);
}

TEST_F(RedLockTest, WorksWithTwoServersDown) {
  Side a = side("rl-down2");
  server(3).kill9();
  server(4).kill9();
  int64_t validity = 0;
  const int status = dlock_redlock_acquire(a.redlock.get(), 2000, 10000, &validity);
  server(3).restart();
  server(4).restart();
  ASSERT_TRUE(status_is(status, DLOCK_OK));
  EXPECT_GT(validity, 0);
  EXPECT_EQ(servers_holding("rl-down2"), 3u);
  EXPECT_TRUE(status_is(dlock_redlock_release(a.redlock.get()), DLOCK_OK));
  EXPECT_EQ(servers_holding("rl-down2"), 0u);
}

// A wait that ends with fewer than a majority of servers answering is
// DLOCK_E_CONNECTION (as a single lock's unreachable server is), not
// DLOCK_NOT_ACQUIRED; the two members it took are released.
TEST_F(RedLockTest, RefusesWithThreeServersDown) {
  Side a = side("rl-down3");
  for (size_t i = 2; i < server_count; ++i) server(i).kill9();
  const auto started = Clock::now();
  const int status = dlock_redlock_acquire(a.redlock.get(), 1000, 10000, nullptr);
  const auto took = Clock::now() - started;
  const size_t left =
      server(0).command({"EXISTS", "rl-down3"}).integer + server(1).command({"EXISTS", "rl-down3"}).integer;
  for (size_t i = 2; i < server_count; ++i) server(i).restart();
  EXPECT_TRUE(status_is(status, DLOCK_E_CONNECTION));
  EXPECT_NE(std::string(dlock_last_error()).find("2 of 5 members answered"), std::string::npos)
      << dlock_last_error();
  EXPECT_LT(took, milliseconds(2000));
  EXPECT_EQ(left, 0u) << "the minority it took was released";
}

TEST_F(RedLockTest, AServerPausedMidAcquireCostsOnlyItsPatience) {
  Side a = side("rl-paused");
  server(2).pause();
  const auto started = Clock::now();
  int64_t validity = 0;
  const int status = dlock_redlock_acquire(a.redlock.get(), 3000, 10000, &validity);
  const auto took = Clock::now() - started;
  std::this_thread::sleep_for(milliseconds(100));
  server(2).resume();
  ASSERT_TRUE(status_is(status, DLOCK_OK));
  EXPECT_LT(took, milliseconds(1500)) << "the patience (lease/20) bounds the paused member";
  EXPECT_GT(validity, 8000);
  // The paused server runs the late request when it resumes; the late grant is released.
  EXPECT_TRUE(wait_until(
      [&] {
        return server(2).command({"EXISTS", "rl-paused"}).integer == 0;
      },
      milliseconds(3000)));
  EXPECT_TRUE(status_is(dlock_redlock_release(a.redlock.get()), DLOCK_OK));
  EXPECT_EQ(servers_holding("rl-paused"), 0u);
}

TEST_F(RedLockTest, AReleaseWithAServerPausedReleasesTheMajorityPromptly) {
  Side a = side("rl-paused-release");
  ASSERT_EQ(dlock_redlock_acquire(a.redlock.get(), 0, 10000, nullptr), DLOCK_OK);
  const long long pttl_before = pttl(server(4), "rl-paused-release");
  server(4).pause();
  const auto started = Clock::now();
  const int status = dlock_redlock_release(a.redlock.get());
  const auto took = Clock::now() - started;
  const size_t left = servers_holding_among(4, "rl-paused-release");
  server(4).resume();
  EXPECT_TRUE(status_is(status, DLOCK_OK)) << "4 of 5 released is a majority";
  EXPECT_LT(took, milliseconds(1500)) << "the paused member costs its patience, not the command timeout";
  EXPECT_EQ(left, 0u);
  // Whether the release reached the paused server or not, nothing renews its
  // hold there: it lapses with its lease at the latest.
  EXPECT_LE(pttl(server(4), "rl-paused-release"), pttl_before);
}

// The known counter-example (Kleppmann 2016): a holds servers 0,1,2 (3 and 4
// were down); server 2 restarts empty (no persistence), so b gets 2,3,4, a
// majority too, while a's hold is still valid: two holders.
TEST_F(RedLockTest, ARestartWithoutPersistenceLetsASecondHolderIn) {
  Side a = side("rl-restart");
  Side b = side("rl-restart");
  server(3).kill9();
  server(4).kill9();
  ASSERT_EQ(dlock_redlock_acquire(a.redlock.get(), 2000, 10000, nullptr), DLOCK_OK);
  server(3).restart();
  server(4).restart();
  server(2).kill9();
  server(2).restart();  // at once, and empty
  int64_t b_validity = 0;
  const int b_status = dlock_redlock_acquire(b.redlock.get(), 2000, 10000, &b_validity);
  int64_t a_validity = 0;
  ASSERT_EQ(dlock_redlock_validity(a.redlock.get(), &a_validity), DLOCK_OK);
  EXPECT_TRUE(status_is(b_status, DLOCK_OK)) << "the counter-example did not reproduce";
  EXPECT_GT(a_validity, 0) << "a still believes it holds the lock";
  dlock_redlock_release(b.redlock.get());
  dlock_redlock_release(a.redlock.get());
}

// The algorithm's authors' answer: a crashed server stays down for at least
// the lease (the longest validity any hold on it could have) before it comes
// back empty. Meanwhile b cannot get a majority; afterwards a's hold is over.
TEST_F(RedLockTest, DelayingTheRestartByTheLeasePreventsASecondHolder) {
  constexpr int64_t lease_ms = 1500;
  Side a = side("rl-delayed");
  Side b = side("rl-delayed");
  server(3).kill9();
  server(4).kill9();
  ASSERT_EQ(dlock_redlock_acquire(a.redlock.get(), 2000, lease_ms, nullptr), DLOCK_OK);
  const auto a_granted = Clock::now();
  server(3).restart();
  server(4).restart();
  server(2).kill9();
  const int b_during = dlock_redlock_acquire(b.redlock.get(), 300, lease_ms, nullptr);
  EXPECT_NE(b_during, DLOCK_OK) << "b got a majority while a held it";
  std::this_thread::sleep_until(a_granted + milliseconds(lease_ms));
  server(2).restart();
  int64_t a_validity = -1;
  ASSERT_EQ(dlock_redlock_validity(a.redlock.get(), &a_validity), DLOCK_OK);
  EXPECT_EQ(a_validity, 0) << "a's hold has ended before server 2 came back";
  EXPECT_TRUE(status_is(dlock_redlock_acquire(b.redlock.get(), 2000, lease_ms, nullptr), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_redlock_release(a.redlock.get()), DLOCK_E_LOST));
  dlock_redlock_release(b.redlock.get());
}

TEST_F(RedLockTest, LosingAMajorityIsReportedOnce) {
  Side a = side("rl-lost", 600);
  LostCount lost;
  ASSERT_EQ(dlock_redlock_set_lost_callback(a.redlock.get(), &LostCount::on_lost, &lost), DLOCK_OK);
  ASSERT_EQ(dlock_redlock_acquire(a.redlock.get(), 0, -1, nullptr), DLOCK_OK);
  server(0).command({"DEL", "rl-lost"});
  server(1).command({"DEL", "rl-lost"});
  std::this_thread::sleep_for(milliseconds(700));  // two renewal periods
  EXPECT_EQ(lost.calls.load(), 0) << "3 of 5 still held is a majority";
  int64_t validity = 0;
  ASSERT_EQ(dlock_redlock_validity(a.redlock.get(), &validity), DLOCK_OK);
  EXPECT_GT(validity, 0);
  server(2).command({"DEL", "rl-lost"});
  ASSERT_TRUE(wait_until([&] { return lost.calls.load() > 0; }, milliseconds(2000)));
  ASSERT_EQ(dlock_redlock_validity(a.redlock.get(), &validity), DLOCK_OK);
  EXPECT_EQ(validity, 0);
  EXPECT_TRUE(status_is(dlock_redlock_release(a.redlock.get()), DLOCK_E_LOST));
  EXPECT_EQ(lost.calls.load(), 1);
  EXPECT_EQ(servers_holding("rl-lost"), 0u);
}

// Members lost, then the owner's release: their holds leave the client too,
// and the owner takes the RedLock again on every server.
TEST_F(RedLockTest, AnOwnerCanTakeTheRedLockAgainAfterALoss) {
  Side a = side("rl-again", 600);
  LostCount lost;
  ASSERT_EQ(dlock_redlock_set_lost_callback(a.redlock.get(), &LostCount::on_lost, &lost), DLOCK_OK);
  ASSERT_EQ(dlock_redlock_acquire(a.redlock.get(), 0, -1, nullptr), DLOCK_OK);
  for (size_t i = 0; i < 3; ++i) server(i).command({"DEL", "rl-again"});
  ASSERT_TRUE(wait_until([&] { return lost.calls.load() > 0; }, milliseconds(2000)));
  EXPECT_TRUE(status_is(dlock_redlock_release(a.redlock.get()), DLOCK_E_LOST));
  EXPECT_EQ(servers_holding("rl-again"), 0u);
  for (size_t i = 0; i < server_count; ++i) {
    int count = -1;
    ASSERT_EQ(dlock_lock_hold_count(a.locks[i].get(), &count), DLOCK_OK);
    EXPECT_EQ(count, 0) << "member " << i << "'s hold left the client";
  }
  ASSERT_TRUE(status_is(dlock_redlock_acquire(a.redlock.get(), 0, -1, nullptr), DLOCK_OK));
  EXPECT_EQ(servers_holding("rl-again"), server_count);
  EXPECT_TRUE(status_is(dlock_redlock_release(a.redlock.get()), DLOCK_OK));
  EXPECT_EQ(lost.calls.load(), 1);
}

// A minority lost: the group still holds and releases fine; the lost
// members' holds leave the client with it, and the next acquire takes them.
TEST_F(RedLockTest, AMinorityLostIsTakenAgainByTheNextAcquire) {
  Side a = side("rl-minority", 600);
  ASSERT_EQ(dlock_redlock_acquire(a.redlock.get(), 0, -1, nullptr), DLOCK_OK);
  server(0).command({"DEL", "rl-minority"});
  ASSERT_TRUE(wait_until(
      [&] {
        int held = 1;
        dlock_lock_is_held(a.locks[0].get(), &held);
        return held == 0;
      },
      milliseconds(2000)))
      << "the watchdog found member 0 gone";
  EXPECT_TRUE(status_is(dlock_redlock_release(a.redlock.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_redlock_acquire(a.redlock.get(), 0, -1, nullptr), DLOCK_OK));
  EXPECT_EQ(servers_holding("rl-minority"), server_count);
  EXPECT_TRUE(status_is(dlock_redlock_release(a.redlock.get()), DLOCK_OK));
}

TEST_F(RedLockTest, IsNoLongerHeldOnceItsValidityRunsOut) {
  Side a = side("rl-valid");
  const uint64_t owner = dlock_thread_owner();
  int held = -1;
  ASSERT_EQ(dlock_redlock_is_held_owner(a.redlock.get(), owner, &held), DLOCK_OK);
  EXPECT_EQ(held, 0);
  ASSERT_EQ(dlock_redlock_acquire(a.redlock.get(), 0, 300, nullptr), DLOCK_OK);
  ASSERT_EQ(dlock_redlock_is_held_owner(a.redlock.get(), owner, &held), DLOCK_OK);
  EXPECT_EQ(held, 1);
  const auto acquired_at = Clock::now();
  ASSERT_TRUE(wait_until(
      [&] { return dlock_redlock_is_held_owner(a.redlock.get(), owner, &held) == DLOCK_OK && held == 0; },
      milliseconds(2000)));
  EXPECT_LE(Clock::now() - acquired_at, milliseconds(300)) << "no longer than the validity";
  int64_t validity = -1;
  ASSERT_EQ(dlock_redlock_validity(a.redlock.get(), &validity), DLOCK_OK);
  EXPECT_EQ(validity, 0);
  std::this_thread::sleep_for(milliseconds(150));  // the servers' leases end too
  EXPECT_TRUE(status_is(dlock_redlock_release(a.redlock.get()), DLOCK_E_LOST));
}

TEST_F(RedLockTest, ACancelEndsTheWait) {
  Side a = side("rl-cancel");
  Side b = side("rl-cancel");
  ASSERT_EQ(dlock_redlock_acquire(a.redlock.get(), 0, -1, nullptr), DLOCK_OK);
  const CancelHandle cancel = new_cancel();
  auto waiter = std::async(std::launch::async, [&] {
    return dlock_redlock_acquire_owner(b.redlock.get(), 7, -1, -1, cancel.get(), nullptr);
  });
  std::this_thread::sleep_for(milliseconds(200));
  const auto triggered_at = Clock::now();
  ASSERT_EQ(dlock_cancel_trigger(cancel.get()), DLOCK_OK);
  EXPECT_TRUE(status_is(waiter.get(), DLOCK_E_INTERRUPTED));
  EXPECT_LT(Clock::now() - triggered_at, milliseconds(100));
  ASSERT_EQ(dlock_redlock_release(a.redlock.get()), DLOCK_OK);
}

TEST_F(RedLockTest, BadInputIsRefusedNamingTheArgument) {
  Side a = side("rl-bad");
  std::vector<dlock_lock*> members;
  for (const auto& lock : a.locks) members.push_back(lock.get());
  dlock_redlock* out = nullptr;
  EXPECT_TRUE(invalid_naming(dlock_redlock_new(members.data(), 2, &out), "count"));
  EXPECT_TRUE(invalid_naming(dlock_redlock_new(nullptr, 3, &out), "members"));
  EXPECT_TRUE(invalid_naming(dlock_redlock_new(members.data(), 3, nullptr), "out"));
  const LockHandle other_name = new_lock(a.clients[0].get(), "rl-bad-2");
  std::vector<dlock_lock*> same_server = {members[0], members[1], other_name.get()};
  EXPECT_TRUE(invalid_naming(dlock_redlock_new(same_server.data(), 3, &out), "same server"));
  const ClientHandle second_client = open_client(server(1).url());
  const LockHandle same_server_other_client = new_lock(second_client.get(), "rl-bad-3");
  std::vector<dlock_lock*> same_url = {members[0], members[1], same_server_other_client.get()};
  EXPECT_TRUE(invalid_naming(dlock_redlock_new(same_url.data(), 3, &out), "members["));
  std::vector<dlock_lock*> duplicated = {members[0], members[1], members[1]};
  EXPECT_TRUE(invalid_naming(dlock_redlock_new(duplicated.data(), 3, &out), "members[2]"));
  a.clients[2].reset();
  EXPECT_TRUE(invalid_naming(dlock_redlock_new(members.data(), 3, &out), "members[2]"));
  EXPECT_EQ(out, nullptr);
  EXPECT_TRUE(invalid_naming(dlock_redlock_acquire(nullptr, 0, -1, nullptr), "redlock"));
  EXPECT_TRUE(invalid_naming(dlock_redlock_acquire(a.redlock.get(), 0, -7, nullptr), "lease_ms"));
  EXPECT_TRUE(invalid_naming(dlock_redlock_validity(a.redlock.get(), nullptr), "ms_out"));
  EXPECT_TRUE(status_is(dlock_redlock_release(a.redlock.get()), DLOCK_E_NOT_OWNER));
}

TEST_F(RedLockTest, ProcessesContendingNeverOverlap) {
  TempDir dir;
  std::string urls;
  for (size_t i = 0; i < server_count; ++i) urls += (i > 0 ? ";" : "") + server(i).url();
  std::vector<std::unique_ptr<ChildProcess>> workers;
  for (int i = 0; i < 3; ++i) {
    workers.push_back(
        start_worker({"--mode", "redlock", "--urls", urls, "--name", "rl-contended", "--wait-ms", "20000",
                      "--log", dir.file("log"), "--store", dir.file("store"), "--threads", "2", "--cycles",
                      "15", "--max-sleep-us", "1500"},
                     dir.file("worker-" + std::to_string(i))));
  }
  for (size_t i = 0; i < workers.size(); ++i) {
    const std::optional<int> status = workers[i]->wait_for(milliseconds(90000));
    ASSERT_TRUE(status.has_value()) << "worker " << i << " did not finish";
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0)
        << read_text_file(dir.file("worker-" + std::to_string(i)));
  }
  const std::vector<Section> sections = SectionLog::read(dir.file("log.rl-contended"));
  EXPECT_EQ(sections.size(), 3u * 2u * 15u);
  const SafetyReport report = check_sections(sections);
  EXPECT_EQ(report.overlaps, 0u) << report.summary();
  EXPECT_EQ(FencedStore(dir.file("store.rl-contended")).state().value,
            static_cast<long long>(sections.size()));
  EXPECT_EQ(servers_holding("rl-contended"), 0u);
}

}  // namespace
}  // namespace dlock_test
