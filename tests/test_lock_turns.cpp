// The reentrant lock's turns (docs/safety.md, "Which attempts are refused"):
// a release names the longest-waiting live owner, and only that owner's
// waits are held back for; a try with no wait on a free lock is always
// granted, and an owner that stops waiting leaves no trace that could
// refuse anyone.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "background_acquire.hpp"
#include "child_process.hpp"
#include "dlock.h"
#include "dlock_handles.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"
#include "temp_dir.hpp"
#include "wait_until.hpp"
#include "worker_launcher.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "turns";
const char* const kWaiting = "dlock_waiting:{turns}";
constexpr int64_t kLongLeaseMs = 30000;
// A crashed waiter's entry is gone this long after its death at most
// (backends/redis/wait_heartbeat.hpp: the liveness window after its last heartbeat).
constexpr int64_t kDeadWaiterGoneMs = 1000;

class LockTurns : public RedisFixture {
 protected:
  void SetUp() override {
    RedisFixture::SetUp();
    // A long yield: a turn that wrongly formed would refuse the tries below
    // for all of it, however slow the host.
    holder_client_ = open_client(server().url() + "?release_yield_ms=1000");
    waiter_client_ = open_client(server().url() + "?release_yield_ms=1000");
    holder_ = new_lock(holder_client_.get(), kName);
    waiter_ = new_lock(waiter_client_.get(), kName);
  }
  void TearDown() override {
    waiter_.reset();
    holder_.reset();
    waiter_client_.reset();
    holder_client_.reset();
    RedisFixture::TearDown();
  }

  long long waiting() { return server().command({"ZCARD", kWaiting}).integer; }

  TempDir dir_;
  ClientHandle holder_client_;
  ClientHandle waiter_client_;
  LockHandle holder_;
  LockHandle waiter_;
};

TEST_F(LockTurns, ATryRightAfterAWaiterGaveUpIsGranted) {
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
    ASSERT_TRUE(status_is(dlock_lock_acquire_owner(waiter_.get(), 2, 200, kLongLeaseMs, nullptr, nullptr),
                          DLOCK_NOT_ACQUIRED));
    ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
    EXPECT_TRUE(status_is(dlock_lock_acquire_owner(holder_.get(), 3, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK))
        << "round " << round << ": the lock is free and nobody waits";
    ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 3), DLOCK_OK));
  }
}

TEST_F(LockTurns, ATryOnAFreeLockIsGrantedDuringAnotherOwnersTurn) {
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  // The waiter releases as soon as it is granted.
  std::future<AcquireOutcome> waiter = acquire_in_background(waiter_.get(), 2, 10000);
  ASSERT_TRUE(wait_until([&] { return waiting() == 1; }, milliseconds(5000)));
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  // The waiter may have taken it already (then the try is refused by its
  // hold, not by a turn, or granted once it let go); otherwise the free lock
  // goes to the try.
  uint64_t try_token = 0;
  const int status = dlock_lock_acquire_owner(holder_.get(), 3, 0, kLongLeaseMs, nullptr, &try_token);
  const int64_t try_granted_ns = monotonic_ns();
  int64_t try_releasing_ns = 0;
  if (status == DLOCK_OK) {
    // Long enough for a waiter wrongly granted beside the try to show.
    std::this_thread::sleep_for(milliseconds(300));
    try_releasing_ns = monotonic_ns();
    ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 3), DLOCK_OK));
  } else {
    EXPECT_TRUE(status_is(status, DLOCK_NOT_ACQUIRED));
  }
  ASSERT_EQ(waiter.wait_for(milliseconds(5000)), std::future_status::ready);
  const AcquireOutcome granted = waiter.get();
  ASSERT_TRUE(status_is(granted.status, DLOCK_OK));
  if (status != DLOCK_OK) return;
  // Tokens tell which hold came first; neither may overlap the other.
  if (granted.token < try_token) {
    EXPECT_LT(granted.returned_ns, try_granted_ns)
        << "two holders at once: the waiter held past the try's grant";
  } else {
    EXPECT_GT(granted.returned_ns, try_releasing_ns)
        << "two holders at once: the waiter, token " << granted.token << ", was granted while the try, token "
        << try_token << ", held";
  }
}

TEST_F(LockTurns, ATryBeforeAWaitRespectsAnotherOwnersTurnWhereATryBarges) {
  // Another owner's turn on the free lock, as a release that named it leaves
  // it (the named waiter is a field of no client here: nothing takes it).
  ASSERT_EQ(server().command({"SET", "dlock_turn:{turns}", "someone-else", "PX", "5000"}).str, "OK");
  EXPECT_TRUE(status_is(dlock_lock_try_before_wait_owner(holder_.get(), 3, kLongLeaseMs, nullptr),
                        DLOCK_NOT_ACQUIRED))
      << "the first attempt of a wait overtook the named waiter";
  EXPECT_FALSE(key_exists(server(), kName));
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(holder_.get(), 4, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK))
      << "a try barges";
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 4), DLOCK_OK));
}

TEST_F(LockTurns, ATryBeforeAWaitTakesAFreeLockWithoutTurns) {
  uint64_t token = 0;
  ASSERT_TRUE(status_is(dlock_lock_try_before_wait_owner(holder_.get(), 3, kLongLeaseMs, &token), DLOCK_OK));
  EXPECT_GT(token, 0u);
  EXPECT_TRUE(status_is(dlock_lock_try_before_wait_owner(waiter_.get(), 4, kLongLeaseMs, nullptr),
                        DLOCK_NOT_ACQUIRED));
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 3), DLOCK_OK));
}

TEST_F(LockTurns, AWaiterGrantedWithoutATurnLeavesNoEntry) {
  // The holder's lease runs out: no release, so no turn, wakes the waiter.
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, 300, nullptr, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(waiter_.get(), 2, 10000, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kWaiting)) << "the grant took the waiter out of the waiting set";
  ASSERT_TRUE(status_is(dlock_lock_release_owner(waiter_.get(), 2), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(holder_.get(), 3, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK))
      << "its own release made no turn for itself";
}

TEST_F(LockTurns, AWaiterDroppedWhileAliveIsToldByItsHeartbeatToJoinAgain) {
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  std::future<AcquireOutcome> dropped = acquire_in_background(waiter_.get(), 2, -1);
  std::future<AcquireOutcome> kept = acquire_in_background(waiter_.get(), 3, -1);
  ASSERT_TRUE(wait_until([&] { return waiting() == 2; }, milliseconds(5000)));
  // Their subscription's confirmation has made them try once more by now.
  std::this_thread::sleep_for(milliseconds(300));
  // As if it had been paused past its deadline: its entry is gone, its
  // client's other waiter's is not (the heartbeat names them together).
  const std::string field = server().command({"ZRANGE", kWaiting, "0", "0"}).elements.at(0).str;
  ASSERT_EQ(server().command({"ZREM", kWaiting, field}).integer, 1);
  ASSERT_EQ(server().command({"ZREM", std::string(kWaiting) + ":until", field}).integer, 1);
  EXPECT_TRUE(wait_until([&] { return waiting() == 2; }, milliseconds(2000)))
      << "the dropped waiter never tried again";
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  for (auto* waiter : {&dropped, &kept}) {
    ASSERT_EQ(waiter->wait_for(milliseconds(5000)), std::future_status::ready);
    EXPECT_TRUE(status_is(waiter->get().status, DLOCK_OK));
  }
}

TEST_F(LockTurns, AKilledWaiterLeavesTheWaitingSetWithinASecond) {
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  const std::string output = dir_.file("doomed.out");
  auto doomed = start_hold_worker({server().url(), kName, dir_.file("store"), "", "", 20, {"--lease-ms", "10000"}},
                                  output);
  ASSERT_TRUE(wait_until([&] { return waiting() == 1; }, milliseconds(10000))) << "the worker never waited";
  // A waiter that lives on: its heartbeat sweeps the dead entry away.
  std::future<AcquireOutcome> survivor = acquire_in_background(waiter_.get(), 2, -1);
  ASSERT_TRUE(wait_until([&] { return waiting() == 2; }, milliseconds(5000)));

  doomed->kill_and_reap();
  const int64_t killed_ns = monotonic_ns();
  ASSERT_TRUE(wait_until([&] { return waiting() == 1; }, milliseconds(5000)));
  // Plus scheduling jitter on a loaded host (and the sanitizers' builds).
  EXPECT_LE(ms_between(killed_ns, monotonic_ns()), kDeadWaiterGoneMs + 500);

  // The release names the survivor, not the dead waiter that arrived first.
  const int64_t released_ns = monotonic_ns();
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  ASSERT_EQ(survivor.wait_for(milliseconds(5000)), std::future_status::ready);
  EXPECT_TRUE(status_is(survivor.get().status, DLOCK_OK));
  EXPECT_LT(ms_between(released_ns, monotonic_ns()), 400);
  EXPECT_FALSE(key_exists(server(), kWaiting));
}

}  // namespace
}  // namespace dlock_test
