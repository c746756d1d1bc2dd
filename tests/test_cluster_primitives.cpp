// Redis Cluster: every primitive besides the reentrant lock works on names
// owned by each master (their keys share the name's slot), waiters are woken
// across nodes, and what spans names (MultiLock, listing) spans masters.
// Shares the program's cluster with test_cluster.cpp.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "background_acquire.hpp"
#include "cluster_suite.hpp"
#include "dlock_handles.hpp"
#include "monotonic_clock.hpp"
#include "redis_inspect.hpp"
#include "semaphore_handles.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

// Without a wake-up message a waiter sleeps until the holder's watchdog
// lease (6 s) or this wait ends.
constexpr int64_t kWaitMs = 10000;

class ClusterPrimitives : public ClusterSuite {
 protected:
  // One name per master, in master_ports() order.
  static std::vector<std::string> one_name_per_master(const std::string& prefix) {
    std::vector<std::string> names;
    for (const auto& on_master : cluster().names_on_each_master(1, prefix)) names.push_back(on_master[0]);
    return names;
  }
  static RedisServer& owner_of(const std::string& name) {
    return cluster().node(cluster().master_for_key(name));
  }
};

// How long `waiting` took to finish after `since_ns`; -1 when it did not within the wait.
template <typename Result>
int64_t ms_until_ready(std::future<Result>& waiting, int64_t since_ns) {
  if (waiting.wait_for(milliseconds(kWaitMs)) != std::future_status::ready) return -1;
  return ms_between(since_ns, monotonic_ns());
}

TEST_F(ClusterPrimitives, TheFairLockHandsOverOnEachMaster) {
  const ClientHandle holder = open();
  const ClientHandle waiting = open();
  for (const std::string& name : one_name_per_master("fair-")) {
    const LockHandle held = new_fair_lock(holder.get(), name);
    const LockHandle wanted = new_fair_lock(waiting.get(), name);
    ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK)) << name;
    EXPECT_TRUE(key_exists(owner_of(name), name)) << name;
    auto waiter = acquire_in_background(wanted.get(), 7, kWaitMs);
    std::this_thread::sleep_for(milliseconds(200));  // queued behind the holder
    const int64_t released_ns = monotonic_ns();
    ASSERT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK)) << name;
    const int64_t woken_ms = ms_until_ready(waiter, released_ns);
    EXPECT_GE(woken_ms, 0) << name;
    EXPECT_LT(woken_ms, kWakeUpMs) << name;
    if (woken_ms >= 0) EXPECT_TRUE(status_is(waiter.get().status, DLOCK_OK)) << name;
  }
}

TEST_F(ClusterPrimitives, ReadLocksShareAndAWriteLockExcludesOnEachMaster) {
  const ClientHandle first = open();
  const ClientHandle second = open();
  for (const std::string& name : one_name_per_master("rw-")) {
    dlock_lock* raw = nullptr;
    require_ok(dlock_rwlock_read_lock(first.get(), name.c_str(), &raw), "read lock");
    const LockHandle first_read(raw);
    require_ok(dlock_rwlock_read_lock(second.get(), name.c_str(), &raw), "read lock");
    const LockHandle second_read(raw);
    require_ok(dlock_rwlock_write_lock(second.get(), name.c_str(), &raw), "write lock");
    const LockHandle write(raw);
    ASSERT_TRUE(status_is(dlock_lock_acquire(first_read.get(), 0, -1, nullptr), DLOCK_OK)) << name;
    ASSERT_TRUE(status_is(dlock_lock_acquire(second_read.get(), 0, -1, nullptr), DLOCK_OK)) << name;
    EXPECT_TRUE(key_exists(owner_of(name), name)) << name;
    EXPECT_TRUE(
        status_is(dlock_lock_acquire_owner(write.get(), 9, 0, -1, nullptr, nullptr), DLOCK_NOT_ACQUIRED))
        << name;
    EXPECT_TRUE(status_is(dlock_lock_release(first_read.get()), DLOCK_OK)) << name;
    EXPECT_TRUE(status_is(dlock_lock_release(second_read.get()), DLOCK_OK)) << name;
    EXPECT_TRUE(status_is(dlock_lock_acquire(write.get(), 0, -1, nullptr), DLOCK_OK)) << name;
    EXPECT_TRUE(status_is(dlock_lock_release(write.get()), DLOCK_OK)) << name;
  }
}

TEST_F(ClusterPrimitives, ASemaphoreReleaseWakesAWaiterOnEachMaster) {
  const ClientHandle holder = open();
  const ClientHandle waiting = open();
  for (const std::string& name : one_name_per_master("semaphore-")) {
    const SemaphoreHandle held = new_semaphore(holder.get(), name);
    const SemaphoreHandle wanted = new_semaphore(waiting.get(), name);
    int set = 0;
    ASSERT_TRUE(status_is(dlock_semaphore_try_set_permits(held.get(), 1, &set), DLOCK_OK)) << name;
    EXPECT_EQ(set, 1) << name;
    EXPECT_TRUE(key_exists(owner_of(name), name)) << name;
    ASSERT_TRUE(status_is(dlock_semaphore_acquire(held.get(), 1, 0, nullptr), DLOCK_OK)) << name;
    EXPECT_TRUE(status_is(dlock_semaphore_acquire(wanted.get(), 1, 0, nullptr), DLOCK_NOT_ACQUIRED)) << name;
    auto waiter = std::async(std::launch::async,
                             [&] { return dlock_semaphore_acquire(wanted.get(), 1, kWaitMs, nullptr); });
    std::this_thread::sleep_for(milliseconds(200));
    const int64_t released_ns = monotonic_ns();
    ASSERT_TRUE(status_is(dlock_semaphore_release(held.get(), 1), DLOCK_OK)) << name;
    const int64_t woken_ms = ms_until_ready(waiter, released_ns);
    EXPECT_GE(woken_ms, 0) << name;
    EXPECT_LT(woken_ms, kWakeUpMs) << name;
    if (woken_ms >= 0) EXPECT_TRUE(status_is(waiter.get(), DLOCK_OK)) << name;
    EXPECT_TRUE(status_is(dlock_semaphore_release(wanted.get(), 1), DLOCK_OK)) << name;
  }
}

TEST_F(ClusterPrimitives, LeasedPermitsAndLatchesWorkOnEachMaster) {
  const ClientHandle client = open();
  const ClientHandle waiting = open();
  for (const std::string& name : one_name_per_master("permits-")) {
    const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), name);
    int set = 0;
    ASSERT_TRUE(status_is(dlock_permit_semaphore_try_set_permits(semaphore.get(), 1, &set), DLOCK_OK))
        << name;
    char id[DLOCK_PERMIT_ID_SIZE] = {};
    ASSERT_TRUE(
        status_is(dlock_permit_semaphore_acquire(semaphore.get(), 0, -1, nullptr, id, sizeof id), DLOCK_OK))
        << name;
    EXPECT_TRUE(status_is(dlock_permit_semaphore_release(semaphore.get(), id), DLOCK_OK)) << name;
  }
  for (const std::string& name : one_name_per_master("latch-")) {
    const LatchHandle latch = new_latch(client.get(), name);
    const LatchHandle awaited = new_latch(waiting.get(), name);
    int set = 0;
    ASSERT_TRUE(status_is(dlock_count_down_latch_try_set_count(latch.get(), 1, &set), DLOCK_OK)) << name;
    EXPECT_TRUE(key_exists(owner_of(name), name)) << name;
    auto waiter = std::async(std::launch::async,
                             [&] { return dlock_count_down_latch_await(awaited.get(), kWaitMs, nullptr); });
    std::this_thread::sleep_for(milliseconds(200));
    const int64_t opened_ns = monotonic_ns();
    ASSERT_TRUE(status_is(dlock_count_down_latch_count_down(latch.get()), DLOCK_OK)) << name;
    const int64_t woken_ms = ms_until_ready(waiter, opened_ns);
    EXPECT_GE(woken_ms, 0) << name;
    EXPECT_LT(woken_ms, kWakeUpMs) << name;
    if (woken_ms >= 0) EXPECT_TRUE(status_is(waiter.get(), DLOCK_OK)) << name;
  }
}

TEST_F(ClusterPrimitives, AMultiLockSpansAMasterPerMember) {
  const ClientHandle first = open();
  const ClientHandle second = open();
  const std::vector<std::string> names = one_name_per_master("member-");
  std::vector<LockHandle> first_members;
  std::vector<LockHandle> second_members;
  std::vector<dlock_lock*> first_raw;
  std::vector<dlock_lock*> second_raw;
  for (const std::string& name : names) {
    first_members.push_back(new_lock(first.get(), name));
    second_members.push_back(new_lock(second.get(), name));
    first_raw.push_back(first_members.back().get());
    second_raw.push_back(second_members.back().get());
  }
  dlock_multilock* raw = nullptr;
  require_ok(dlock_multilock_new(first_raw.data(), first_raw.size(), &raw), "multilock");
  const MultiLockHandle first_group(raw);
  require_ok(dlock_multilock_new(second_raw.data(), second_raw.size(), &raw), "multilock");
  const MultiLockHandle second_group(raw);

  ASSERT_TRUE(status_is(dlock_multilock_acquire(first_group.get(), 0, -1), DLOCK_OK));
  for (const std::string& name : names) EXPECT_TRUE(key_exists(owner_of(name), name)) << name;
  EXPECT_TRUE(status_is(dlock_multilock_acquire(second_group.get(), 0, -1), DLOCK_NOT_ACQUIRED));
  EXPECT_TRUE(status_is(dlock_multilock_release(first_group.get()), DLOCK_OK));
  for (const std::string& name : names) EXPECT_FALSE(key_exists(owner_of(name), name)) << name;
  EXPECT_TRUE(status_is(dlock_multilock_acquire(second_group.get(), 0, -1), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_multilock_release(second_group.get()), DLOCK_OK));
}

// The status an asynchronous call ends with.
void on_done(int status, uint64_t /*token*/, const char* /*message*/, void* promise) {
  static_cast<std::promise<int>*>(promise)->set_value(status);
}

TEST_F(ClusterPrimitives, AsynchronousCallsWaitAndReleaseOnEachMaster) {
  const ClientHandle holder = open();
  const ClientHandle waiting = open();
  for (const std::string& name : one_name_per_master("async-")) {
    const LockHandle held = new_lock(holder.get(), name);
    const LockHandle wanted = new_lock(waiting.get(), name);
    ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, kLongLeaseMs, nullptr), DLOCK_OK)) << name;
    std::promise<int> acquired;
    auto acquire = acquired.get_future();
    ASSERT_TRUE(status_is(
        dlock_lock_acquire_async(wanted.get(), 11, kWaitMs, -1, nullptr, on_done, &acquired), DLOCK_OK));
    std::this_thread::sleep_for(milliseconds(200));
    const int64_t released_ns = monotonic_ns();
    ASSERT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK)) << name;
    const int64_t woken_ms = ms_until_ready(acquire, released_ns);
    EXPECT_GE(woken_ms, 0) << name;
    EXPECT_LT(woken_ms, kWakeUpMs) << name;
    if (woken_ms < 0) continue;
    EXPECT_TRUE(status_is(acquire.get(), DLOCK_OK)) << name;
    std::promise<int> released;
    auto release = released.get_future();
    ASSERT_TRUE(status_is(dlock_lock_release_async(wanted.get(), 11, on_done, &released), DLOCK_OK));
    ASSERT_EQ(release.wait_for(milliseconds(kWaitMs)), std::future_status::ready) << name;
    EXPECT_TRUE(status_is(release.get(), DLOCK_OK)) << name;
    EXPECT_FALSE(key_exists(owner_of(name), name)) << name;
  }
}

int collect_name(const char* name, size_t length, void* names) {
  static_cast<std::set<std::string>*>(names)->insert(std::string(name, length));
  return 0;
}

// What `dlock list` and `dlock status` read.
TEST_F(ClusterPrimitives, ListingScansEveryMasterAndHolderNotesLiveBesideTheirLock) {
  const ClientHandle client = open();
  std::set<std::string> held;
  std::vector<LockHandle> locks;
  for (const auto& on_master : cluster().names_on_each_master(2, "listed-")) {
    for (const std::string& name : on_master) {
      locks.push_back(new_lock(client.get(), name));
      ASSERT_TRUE(status_is(dlock_lock_acquire(locks.back().get(), 0, -1, nullptr), DLOCK_OK)) << name;
      held.insert(name);
    }
  }
  std::set<std::string> listed;
  ASSERT_TRUE(status_is(dlock_lock_list(client.get(), "listed-", collect_name, &listed), DLOCK_OK));
  EXPECT_EQ(listed, held);

  for (const LockHandle& lock : locks) {
    const std::string name = dlock_lock_name(lock.get());
    ASSERT_TRUE(status_is(dlock_lock_note_holder(lock.get(), dlock_thread_owner(), "host=test"), DLOCK_OK))
        << name;
    char* holder_id = nullptr;
    char* note = nullptr;
    ASSERT_TRUE(status_is(dlock_lock_read_holder_note(lock.get(), &holder_id, &note), DLOCK_OK)) << name;
    ASSERT_NE(note, nullptr) << name;
    EXPECT_STREQ(note, "host=test") << name;
    EXPECT_EQ(hash_fields(owner_of(name), name).count(holder_id), 1u)
        << "the note names the holder: " << name;
    dlock_lock_holder_note_free(holder_id);
    dlock_lock_holder_note_free(note);
    EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK)) << name;
  }
}

}  // namespace
}  // namespace dlock_test
