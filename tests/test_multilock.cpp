// MultiLock: all members or none, re-entrant, loss reported, deadlock-free
// when processes lock overlapping sets in different orders; bad input.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <thread>

#include "dlock.h"
#include "fenced_store.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
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

class MultiLockTest : public RedisFixture {
 protected:
  void SetUp() override {
    RedisFixture::SetUp();
    client_ = open(600);
    for (const char* name : {"ml-a", "ml-b", "ml-c"}) locks_.push_back(new_lock(client_.get(), name));
  }

  MultiLockHandle make(std::vector<dlock_lock*> members) {
    dlock_multilock* multilock = nullptr;
    require_ok(dlock_multilock_new(members.data(), members.size(), &multilock), "dlock_multilock_new");
    return MultiLockHandle(multilock);
  }
  MultiLockHandle make_all() { return make({locks_[0].get(), locks_[1].get(), locks_[2].get()}); }

  ClientHandle client_;
  std::vector<LockHandle> locks_;
};

struct LostCount {
  std::atomic<int> calls{0};
  std::string name;
  static void on_lost(const char* name, uint64_t, uint64_t, void* ctx) {
    auto* self = static_cast<LostCount*>(ctx);
    self->name = name;
    self->calls.fetch_add(1);
  }
};

TEST_F(MultiLockTest, AcquiresEveryMemberAndReleasesThemAll) {
  const MultiLockHandle multilock = make_all();
  ASSERT_TRUE(status_is(dlock_multilock_acquire(multilock.get(), 0, -1), DLOCK_OK));
  for (const char* name : {"ml-a", "ml-b", "ml-c"}) EXPECT_TRUE(key_exists(server(), name)) << name;
  ASSERT_TRUE(status_is(dlock_multilock_release(multilock.get()), DLOCK_OK));
  for (const char* name : {"ml-a", "ml-b", "ml-c"}) EXPECT_FALSE(key_exists(server(), name)) << name;
  EXPECT_TRUE(status_is(dlock_multilock_release(multilock.get()), DLOCK_E_NOT_OWNER));
}

TEST_F(MultiLockTest, AFailedAttemptLeavesNoMemberHeld) {
  const ClientHandle other = open();
  const LockHandle b = new_lock(other.get(), "ml-b");
  ASSERT_EQ(dlock_lock_acquire(b.get(), 0, -1, nullptr), DLOCK_OK);
  const MultiLockHandle multilock = make_all();
  const auto started = Clock::now();
  EXPECT_TRUE(status_is(dlock_multilock_acquire(multilock.get(), 300, -1), DLOCK_NOT_ACQUIRED));
  EXPECT_GE(Clock::now() - started, milliseconds(290));
  EXPECT_FALSE(key_exists(server(), "ml-a"));
  EXPECT_FALSE(key_exists(server(), "ml-c"));
  int count = -1;
  ASSERT_EQ(dlock_lock_hold_count(locks_[0].get(), &count), DLOCK_OK);
  EXPECT_EQ(count, 0);
  ASSERT_EQ(dlock_lock_release(b.get()), DLOCK_OK);
}

TEST_F(MultiLockTest, WaitsForTheBusyMemberAndWakesOnItsRelease) {
  const ClientHandle other = open();
  const LockHandle c = new_lock(other.get(), "ml-c");
  ASSERT_EQ(dlock_lock_acquire(c.get(), 0, 20000, nullptr), DLOCK_OK);
  const MultiLockHandle multilock = make_all();
  auto waiter = std::async(std::launch::async, [&] {
    const int status = dlock_multilock_acquire(multilock.get(), 10000, -1);
    const auto acquired_at = Clock::now();
    if (status == DLOCK_OK) dlock_multilock_release(multilock.get());
    return std::make_pair(status, acquired_at);
  });
  std::this_thread::sleep_for(milliseconds(300));
  // The waiter holds nothing while it waits.
  EXPECT_FALSE(key_exists(server(), "ml-a"));
  const auto released_at = Clock::now();
  ASSERT_EQ(dlock_lock_release(c.get()), DLOCK_OK);
  const auto [status, acquired_at] = waiter.get();
  EXPECT_TRUE(status_is(status, DLOCK_OK));
  EXPECT_LT(acquired_at - released_at, milliseconds(500))
      << "woken by the release message, not the 20 s lease";
}

TEST_F(MultiLockTest, ReentersEachMember) {
  const MultiLockHandle multilock = make_all();
  ASSERT_EQ(dlock_multilock_acquire(multilock.get(), 0, -1), DLOCK_OK);
  const long long calls = command_calls(server(), "evalsha");
  ASSERT_EQ(dlock_multilock_acquire(multilock.get(), 0, -1), DLOCK_OK);
  EXPECT_EQ(command_calls(server(), "evalsha"), calls) << "a re-entry makes no round trip";
  int count = 0;
  ASSERT_EQ(dlock_multilock_hold_count_owner(multilock.get(), dlock_thread_owner(), &count), DLOCK_OK);
  EXPECT_EQ(count, 2);
  ASSERT_EQ(dlock_lock_hold_count(locks_[1].get(), &count), DLOCK_OK);
  EXPECT_EQ(count, 2);
  ASSERT_EQ(dlock_multilock_release(multilock.get()), DLOCK_OK);
  EXPECT_TRUE(key_exists(server(), "ml-b"));
  ASSERT_EQ(dlock_multilock_release(multilock.get()), DLOCK_OK);
  EXPECT_FALSE(key_exists(server(), "ml-b"));
}

TEST_F(MultiLockTest, AMemberLostIsTheMultiLockLost) {
  const MultiLockHandle multilock = make_all();
  LostCount lost;
  ASSERT_EQ(dlock_multilock_set_lost_callback(multilock.get(), &LostCount::on_lost, &lost), DLOCK_OK);
  ASSERT_EQ(dlock_multilock_acquire(multilock.get(), 0, -1), DLOCK_OK);
  const ClientHandle other = open();
  const LockHandle b = new_lock(other.get(), "ml-b");
  ASSERT_EQ(dlock_lock_force_release(b.get()), DLOCK_OK);
  ASSERT_TRUE(wait_until([&] { return lost.calls.load() > 0; }, milliseconds(3000)))
      << "the watchdog found it";
  EXPECT_EQ(lost.name, "ml-a,ml-b,ml-c");
  EXPECT_TRUE(status_is(dlock_multilock_release(multilock.get()), DLOCK_E_LOST));
  EXPECT_EQ(lost.calls.load(), 1);
  EXPECT_FALSE(key_exists(server(), "ml-a")) << "the members still held are released all the same";
  EXPECT_FALSE(key_exists(server(), "ml-c"));
}

// The owner's release of a group with a lost member forgets that member's
// hold too (touching nothing another owner holds), so the owner can take the
// MultiLock again.
TEST_F(MultiLockTest, AnOwnerCanTakeTheMultiLockAgainAfterALoss) {
  const MultiLockHandle multilock = make_all();
  LostCount lost;
  ASSERT_EQ(dlock_multilock_set_lost_callback(multilock.get(), &LostCount::on_lost, &lost), DLOCK_OK);
  ASSERT_EQ(dlock_multilock_acquire(multilock.get(), 0, -1), DLOCK_OK);
  const ClientHandle other = open();
  const LockHandle b = new_lock(other.get(), "ml-b");
  ASSERT_EQ(dlock_lock_force_release(b.get()), DLOCK_OK);
  ASSERT_TRUE(wait_until([&] { return lost.calls.load() > 0; }, milliseconds(3000)));
  ASSERT_EQ(dlock_lock_acquire(b.get(), 0, -1, nullptr), DLOCK_OK);
  EXPECT_TRUE(status_is(dlock_multilock_release(multilock.get()), DLOCK_E_LOST));
  EXPECT_TRUE(key_exists(server(), "ml-b")) << "the other owner's hold is untouched";
  int count = -1;
  ASSERT_EQ(dlock_lock_hold_count(locks_[1].get(), &count), DLOCK_OK);
  EXPECT_EQ(count, 0) << "the lost member's hold left the client";
  EXPECT_TRUE(status_is(dlock_multilock_acquire(multilock.get(), 0, -1), DLOCK_NOT_ACQUIRED));
  ASSERT_EQ(dlock_lock_release(b.get()), DLOCK_OK);
  ASSERT_TRUE(status_is(dlock_multilock_acquire(multilock.get(), 0, -1), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_multilock_release(multilock.get()), DLOCK_OK));
  EXPECT_EQ(lost.calls.load(), 1);
  for (const char* name : {"ml-a", "ml-b", "ml-c"}) EXPECT_FALSE(key_exists(server(), name)) << name;
}

TEST_F(MultiLockTest, IsNoLongerHeldOnceAFixedLeaseRunsOut) {
  const MultiLockHandle multilock = make_all();
  const uint64_t owner = dlock_thread_owner();
  int held = -1;
  ASSERT_EQ(dlock_multilock_is_held_owner(multilock.get(), owner, &held), DLOCK_OK);
  EXPECT_EQ(held, 0);
  ASSERT_EQ(dlock_multilock_acquire(multilock.get(), 0, 300), DLOCK_OK);
  ASSERT_EQ(dlock_multilock_is_held_owner(multilock.get(), owner, &held), DLOCK_OK);
  EXPECT_EQ(held, 1);
  ASSERT_TRUE(wait_until(
      [&] { return dlock_multilock_is_held_owner(multilock.get(), owner, &held) == DLOCK_OK && held == 0; },
      milliseconds(2000)))
      << "still held after its 300 ms lease";
  std::this_thread::sleep_for(milliseconds(150));  // the server's lease ends too
  EXPECT_TRUE(status_is(dlock_multilock_release(multilock.get()), DLOCK_E_LOST));
}

TEST_F(MultiLockTest, ACancelEndsTheWaitHoldingNothing) {
  const ClientHandle other = open();
  const LockHandle a = new_lock(other.get(), "ml-a");
  ASSERT_EQ(dlock_lock_acquire(a.get(), 0, -1, nullptr), DLOCK_OK);
  const MultiLockHandle multilock = make_all();
  const CancelHandle cancel = new_cancel();
  auto waiter = std::async(std::launch::async, [&] {
    return dlock_multilock_acquire_owner(multilock.get(), 42, -1, -1, cancel.get());
  });
  std::this_thread::sleep_for(milliseconds(200));
  const auto triggered_at = Clock::now();
  ASSERT_EQ(dlock_cancel_trigger(cancel.get()), DLOCK_OK);
  EXPECT_TRUE(status_is(waiter.get(), DLOCK_E_INTERRUPTED));
  EXPECT_LT(Clock::now() - triggered_at, milliseconds(100));
  EXPECT_FALSE(key_exists(server(), "ml-b"));
  ASSERT_EQ(dlock_lock_release(a.get()), DLOCK_OK);
}

TEST_F(MultiLockTest, MembersFromSeveralClientsAndServers) {
  RedisServer second;
  const ClientHandle other = open_client(second.url());
  const LockHandle remote = new_lock(other.get(), "ml-remote");
  const MultiLockHandle multilock = make({remote.get(), locks_[0].get()});
  ASSERT_EQ(dlock_multilock_acquire(multilock.get(), 0, 5000), DLOCK_OK);
  EXPECT_TRUE(key_exists(second, "ml-remote"));
  EXPECT_TRUE(key_exists(server(), "ml-a"));
  ASSERT_EQ(dlock_multilock_release(multilock.get()), DLOCK_OK);
  EXPECT_FALSE(key_exists(second, "ml-remote"));
}

TEST_F(MultiLockTest, BadInputIsRefusedNamingTheArgument) {
  dlock_multilock* out = nullptr;
  dlock_lock* members[] = {locks_[0].get(), locks_[1].get()};
  EXPECT_TRUE(invalid_naming(dlock_multilock_new(nullptr, 2, &out), "members"));
  EXPECT_TRUE(invalid_naming(dlock_multilock_new(members, 0, &out), "count"));
  EXPECT_TRUE(invalid_naming(dlock_multilock_new(members, 2, nullptr), "out"));
  dlock_lock* with_null[] = {locks_[0].get(), nullptr};
  EXPECT_TRUE(invalid_naming(dlock_multilock_new(with_null, 2, &out), "members[1]"));
  const LockHandle again = new_lock(client_.get(), "ml-a");
  dlock_lock* duplicated[] = {locks_[0].get(), again.get()};
  EXPECT_TRUE(invalid_naming(dlock_multilock_new(duplicated, 2, &out), "members[1]"));
  EXPECT_EQ(out, nullptr);

  ClientHandle closing = open();
  const LockHandle orphan = new_lock(closing.get(), "ml-orphan");
  closing.reset();
  dlock_lock* closed[] = {locks_[0].get(), orphan.get()};
  EXPECT_TRUE(invalid_naming(dlock_multilock_new(closed, 2, &out), "members[1]"));

  const MultiLockHandle multilock = make_all();
  EXPECT_TRUE(invalid_naming(dlock_multilock_acquire(nullptr, 0, -1), "multilock"));
  EXPECT_TRUE(invalid_naming(dlock_multilock_acquire(multilock.get(), 0, 0), "lease_ms"));
  EXPECT_TRUE(invalid_naming(dlock_multilock_acquire(multilock.get(), -5, -1), "wait_ms"));
  EXPECT_TRUE(invalid_naming(dlock_multilock_release(nullptr), "multilock"));
  EXPECT_TRUE(invalid_naming(dlock_multilock_hold_count_owner(multilock.get(), 1, nullptr), "out"));
  dlock_multilock_free(nullptr);
}

TEST_F(MultiLockTest, MemberHandlesMayBeFreedFirst) {
  MultiLockHandle multilock = make_all();
  locks_.clear();
  ASSERT_EQ(dlock_multilock_acquire(multilock.get(), 0, -1), DLOCK_OK);
  multilock.reset();  // freeing it releases its holds
  EXPECT_FALSE(key_exists(server(), "ml-a"));
}

// Processes lock overlapping sets given in different orders, some with short
// waits that fail: nobody deadlocks, no two sections on a name overlap, and a
// failed attempt leaves nothing held (the worker checks after each).
TEST_F(MultiLockTest, OverlappingSetsInDifferentOrdersAcrossProcesses) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> sets = {
      {"x,y,z", "-1"}, {"z,y,x", "-1"}, {"y,x", "20"}, {"z,x", "20"}, {"y,z", "-1"}};
  std::vector<std::unique_ptr<ChildProcess>> workers;
  for (size_t i = 0; i < sets.size(); ++i) {
    workers.push_back(
        start_worker({"--mode", "multilock", "--url", server().url(), "--name", sets[i].first, "--wait-ms",
                      sets[i].second, "--log", dir.file("log"), "--store", dir.file("store"), "--threads",
                      "2", "--cycles", "20", "--max-sleep-us", "1500"},
                     dir.file("worker-" + std::to_string(i))));
  }
  size_t failed_attempts = 0;
  for (size_t i = 0; i < workers.size(); ++i) {
    const std::optional<int> status = workers[i]->wait_for(milliseconds(60000));
    ASSERT_TRUE(status.has_value()) << "worker " << i << " did not finish: a deadlock?";
    const std::string output = read_text_file(dir.file("worker-" + std::to_string(i)));
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << output;
    for (size_t at = output.find("not_acquired"); at != std::string::npos;
         at = output.find("not_acquired", at + 1)) {
      ++failed_attempts;
    }
  }
  std::printf("failed attempts checked for leftovers: %zu\n", failed_attempts);
  for (const std::string name : {"x", "y", "z"}) {
    const std::vector<Section> sections = SectionLog::read(dir.file("log." + name));
    ASSERT_FALSE(sections.empty()) << name;
    const SafetyReport report = check_sections(sections);
    EXPECT_EQ(report.overlaps, 0u) << name << ": " << report.summary();
    EXPECT_EQ(FencedStore(dir.file("store." + name)).state().value, static_cast<long long>(sections.size()))
        << name << ": lost updates";
    EXPECT_FALSE(key_exists(server(), name));
  }
}

}  // namespace
}  // namespace dlock_test
