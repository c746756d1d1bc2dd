// SPEC 14, issue 22: a fixed lease that runs out as asked is an expiry, not a
// loss: counted in `expiries`, logged at INFO, and its release returns
// DLOCK_E_LOST with dlock_last_error_is_expiry() set. A watchdog lease that
// lapses, or a fixed lease taken before its end, stays a loss.
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <future>
#include <string>
#include <utility>

#include "dlock.h"
#include "log_capture.hpp"
#include "lost_recorder.hpp"
#include "redis_fixture.hpp"
#include "semaphore_handles.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "expiring";
constexpr int64_t kLeaseMs = 300;

// The calling thread's last failure, as a release reported it.
struct Failure {
  int status;
  bool expiry;
  std::string message;
};

Failure last_failure(int status) {
  return {status, dlock_last_error_is_expiry() == 1, dlock_last_error()};
}

class Expiry : public RedisFixture {
 protected:
  // Holds `lock` for a fixed lease of kLeaseMs, lets it run out and releases
  // it late.
  Failure expire_and_release(dlock_client* client, dlock_lock* lock) {
    require_ok(dlock_lock_acquire(lock, 0, kLeaseMs, nullptr), "dlock_lock_acquire");
    EXPECT_TRUE(wait_until([&] { return client_stats(client).expiries == 1; }, milliseconds(3000)));
    return last_failure(dlock_lock_release(lock));
  }
};

TEST_F(Expiry, AFixedLeaseThatRunsOutIsAnExpiryNotALoss) {
  const LogCapture log(DLOCK_LOG_INFO);
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  LostRecorder callback;
  ASSERT_TRUE(status_is(callback.attach(lock.get()), DLOCK_OK));

  const Failure release = expire_and_release(client.get(), lock.get());
  EXPECT_EQ(release.status, DLOCK_E_LOST) << "handlers of a loss must still catch an expiry";
  EXPECT_TRUE(release.expiry) << release.message;
  EXPECT_NE(release.message.find("expired"), std::string::npos) << release.message;
  EXPECT_NE(release.message.find("ran out as asked"), std::string::npos) << release.message;

  const dlock_client_stats stats = client_stats(client.get());
  EXPECT_EQ(stats.expiries, 1u);
  EXPECT_EQ(stats.locks_lost, 0u);
  EXPECT_TRUE(
      log.has(DLOCK_LOG_INFO, {"'expiring'", "expired after", "fixed lease of 300 ms ran out as asked"}))
      << log.dump();
  for (const LogRecord& record : log.records()) EXPECT_NE(record.level, DLOCK_LOG_WARN) << record.message;
  EXPECT_EQ(callback.calls(), 1) << "the lost callback still tells the holder its section is unprotected";
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_NOT_OWNER))
      << "the expired hold is forgotten";
}

TEST_F(Expiry, EveryLockKindWithAFixedLeaseExpires) {
  const ClientHandle client = open();
  using Maker = std::function<int(dlock_client*, const char*, dlock_lock**)>;
  const std::pair<const char*, Maker> kinds[] = {
      {"fair", dlock_fair_lock_new},
      {"read", dlock_rwlock_read_lock},
      {"write", dlock_rwlock_write_lock},
  };
  uint64_t expected = 0;
  for (const auto& [kind, make] : kinds) {
    SCOPED_TRACE(kind);
    dlock_lock* raw = nullptr;
    ASSERT_TRUE(status_is(make(client.get(), (std::string(kName) + "-" + kind).c_str(), &raw), DLOCK_OK));
    const LockHandle lock(raw);
    require_ok(dlock_lock_acquire(lock.get(), 0, kLeaseMs, nullptr), "dlock_lock_acquire");
    ++expected;
    EXPECT_TRUE(
        wait_until([&] { return client_stats(client.get()).expiries == expected; }, milliseconds(3000)));
    const Failure release = last_failure(dlock_lock_release(lock.get()));
    EXPECT_EQ(release.status, DLOCK_E_LOST);
    EXPECT_TRUE(release.expiry) << release.message;
  }
  EXPECT_EQ(client_stats(client.get()).locks_lost, 0u);
}

TEST_F(Expiry, AMultiLockWithAFixedLeaseExpires) {
  const ClientHandle client = open();
  const LockHandle first = new_lock(client.get(), "expiring-a");
  const LockHandle second = new_lock(client.get(), "expiring-b");
  dlock_lock* const members[] = {first.get(), second.get()};
  dlock_multilock* raw = nullptr;
  ASSERT_TRUE(status_is(dlock_multilock_new(members, 2, &raw), DLOCK_OK));
  const MultiLockHandle multilock(raw);
  require_ok(dlock_multilock_acquire(multilock.get(), 0, kLeaseMs), "dlock_multilock_acquire");
  EXPECT_TRUE(wait_until([&] { return client_stats(client.get()).expiries == 2; }, milliseconds(3000)));
  const Failure release = last_failure(dlock_multilock_release(multilock.get()));
  EXPECT_EQ(release.status, DLOCK_E_LOST);
  EXPECT_TRUE(release.expiry) << release.message;
  EXPECT_EQ(client_stats(client.get()).locks_lost, 0u);
}

TEST_F(Expiry, ALeasedPermitThatRunsOutIsAnExpiry) {
  const ClientHandle client = open();
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  int set = 0;
  ASSERT_TRUE(status_is(dlock_permit_semaphore_try_set_permits(semaphore.get(), 1, &set), DLOCK_OK));
  char id[DLOCK_PERMIT_ID_SIZE];
  ASSERT_TRUE(status_is(
      dlock_permit_semaphore_acquire(semaphore.get(), 0, kLeaseMs, nullptr, id, sizeof id), DLOCK_OK));
  EXPECT_TRUE(wait_until([&] { return client_stats(client.get()).expiries == 1; }, milliseconds(3000)));
  const Failure release = last_failure(dlock_permit_semaphore_release(semaphore.get(), id));
  EXPECT_EQ(release.status, DLOCK_E_LOST);
  EXPECT_TRUE(release.expiry) << release.message;
  EXPECT_NE(release.message.find(id), std::string::npos)
      << "the message names the permit: " << release.message;
  EXPECT_EQ(client_stats(client.get()).locks_lost, 0u);
}

TEST_F(Expiry, AWatchdogHoldWhoseKeyIsDeletedIsStillALoss) {
  const LogCapture log(DLOCK_LOG_INFO);
  const ClientHandle client = open(900);
  const LockHandle lock = new_lock(client.get(), kName);
  require_ok(dlock_lock_acquire(lock.get(), 0, -1, nullptr), "dlock_lock_acquire");
  server().command({"DEL", kName});
  EXPECT_TRUE(wait_until([&] { return client_stats(client.get()).locks_lost == 1; }, milliseconds(3000)));
  const Failure release = last_failure(dlock_lock_release(lock.get()));
  EXPECT_EQ(release.status, DLOCK_E_LOST);
  EXPECT_FALSE(release.expiry) << release.message;
  EXPECT_EQ(client_stats(client.get()).expiries, 0u);
  EXPECT_TRUE(log.has(DLOCK_LOG_WARN, {"'expiring'", "lost after"})) << log.dump();
}

TEST_F(Expiry, AFixedLeaseForceReleasedBeforeItsEndIsALoss) {
  const LogCapture log(DLOCK_LOG_INFO);
  const ClientHandle client = open();
  const ClientHandle other = open();
  const LockHandle lock = new_lock(client.get(), kName);
  const LockHandle intruder = new_lock(other.get(), kName);
  LostRecorder callback;
  ASSERT_TRUE(status_is(callback.attach(lock.get()), DLOCK_OK));
  require_ok(dlock_lock_acquire(lock.get(), 0, 10000, nullptr), "dlock_lock_acquire");
  require_ok(dlock_lock_force_release(intruder.get()), "dlock_lock_force_release");
  const Failure release = last_failure(dlock_lock_release(lock.get()));
  EXPECT_EQ(release.status, DLOCK_E_LOST);
  EXPECT_FALSE(release.expiry) << release.message;
  const dlock_client_stats stats = client_stats(client.get());
  EXPECT_EQ(stats.locks_lost, 1u);
  EXPECT_EQ(stats.expiries, 0u);
  EXPECT_TRUE(log.has(DLOCK_LOG_WARN, {"'expiring'", "lost after"})) << log.dump();
  EXPECT_EQ(callback.calls(), 1);
}

TEST_F(Expiry, AnAsynchronousReleaseTellsTheExpiryToo) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  constexpr uint64_t kOwner = 7;
  require_ok(dlock_lock_acquire_owner(lock.get(), kOwner, 0, kLeaseMs, nullptr, nullptr), "acquire");
  EXPECT_TRUE(wait_until([&] { return client_stats(client.get()).expiries == 1; }, milliseconds(3000)));
  std::promise<Failure> outcome;
  const auto on_done = [](int status, uint64_t, const char*, void* ctx) {
    static_cast<std::promise<Failure>*>(ctx)->set_value(last_failure(status));
  };
  ASSERT_TRUE(status_is(dlock_lock_release_async(lock.get(), kOwner, on_done, &outcome), DLOCK_OK));
  auto released = outcome.get_future();
  ASSERT_EQ(released.wait_for(milliseconds(5000)), std::future_status::ready);
  const Failure release = released.get();
  EXPECT_EQ(release.status, DLOCK_E_LOST);
  EXPECT_TRUE(release.expiry) << release.message;
}

TEST_F(Expiry, AnOlderStatsStructStopsBeforeTheNewCounter) {
  // A caller compiled before `expiries` existed passes a smaller size: the
  // library writes nothing past it.
  const ClientHandle client = open();
  dlock_client_stats stats{};
  stats.size = offsetof(dlock_client_stats, expiries);
  stats.expiries = 42;
  EXPECT_TRUE(status_is(dlock_client_stats_get(client.get(), &stats), DLOCK_OK));
  EXPECT_EQ(stats.expiries, 42u);
}

}  // namespace
}  // namespace dlock_test
