// What a waiter of the read-write lock leaves on Redis lasts no longer than
// the waiter: the write intent of a writer killed (kill -9) or paused
// (SIGSTOP) while it waits lapses within a second, and a read-to-write upgrade that
// gives up lets the readers it held back in at once.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "background_acquire.hpp"
#include "dlock.h"
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

const char* const kName = "rw";
const char* const kIntent = "{rw}:write_intent";
constexpr uint64_t kAlice = 1;
constexpr uint64_t kBob = 2;
// The bound on how long a waiter's intent outlives it (docs/read-write-lock.md).
constexpr int64_t kIntentOutlivesMs = 1000;

LockHandle side(dlock_client* client, bool write) {
  dlock_lock* lock = nullptr;
  const int status =
      write ? dlock_rwlock_write_lock(client, kName, &lock) : dlock_rwlock_read_lock(client, kName, &lock);
  require_ok(status, "dlock_rwlock_*_lock");
  return LockHandle(lock);
}

class RwLockDeadWaiters : public RedisFixture {
 protected:
  void SetUp() override {
    RedisFixture::SetUp();
    client_ = open();
    read_ = side(client_.get(), false);
    write_ = side(client_.get(), true);
  }
  void TearDown() override {
    write_.reset();
    read_.reset();
    client_.reset();
    RedisFixture::TearDown();
  }

  // A writer process waiting for the lock (without end) once its intent is on Redis.
  std::unique_ptr<ChildProcess> waiting_writer_process() {
    auto writer = start_hold_worker({server().url(), kName, dir_.file("store"), "", "write", 100, {}},
                                    dir_.file("writer.out"));
    EXPECT_TRUE(wait_until([&] { return key_exists(server(), kIntent); }, milliseconds(10000)))
        << "the waiting writer left no intent: " << read_text_file(dir_.file("writer.out"));
    return writer;
  }

  // Alice reads with the watchdog's lease (30 s), a writer process waits
  // behind her and is then `stop`ped; Alice leaves: a new reader gets in
  // within the bound, counted from the writer's end.
  void new_reader_gets_in_after_the_writer(int stop_signal) {
    ASSERT_TRUE(status_is(dlock_lock_acquire_owner(read_.get(), kAlice, 0, -1, nullptr, nullptr), DLOCK_OK));
    auto writer = waiting_writer_process();
    writer->signal(stop_signal);
    const int64_t stopped_ns = monotonic_ns();
    ASSERT_TRUE(status_is(dlock_lock_release_owner(read_.get(), kAlice), DLOCK_OK));

    auto reader = acquire_in_background(read_.get(), kBob, 4 * kIntentOutlivesMs);
    ASSERT_EQ(reader.wait_for(milliseconds(10000)), std::future_status::ready);
    const AcquireOutcome outcome = reader.get();
    EXPECT_TRUE(status_is(outcome.status, DLOCK_OK)) << "the dead writer's intent kept the reader out";
    const int64_t held_back_ms = ms_between(stopped_ns, outcome.returned_ns);
    RecordProperty("reader_in_after_writer_stopped_ms", std::to_string(held_back_ms));
    // Plus scheduling jitter on a loaded host (and the sanitizers' builds).
    EXPECT_LE(held_back_ms, kIntentOutlivesMs + 500) << "the intent outlived its writer";
    writer->kill_and_reap();
  }

  TempDir dir_;
  ClientHandle client_;
  LockHandle read_;
  LockHandle write_;
};

TEST_F(RwLockDeadWaiters, AKilledWaitingWriterHoldsReadersBackAtMostASecond) {
  new_reader_gets_in_after_the_writer(SIGKILL);
}

TEST_F(RwLockDeadWaiters, APausedWaitingWriterHoldsReadersBackAtMostASecond) {
  new_reader_gets_in_after_the_writer(SIGSTOP);
}

TEST_F(RwLockDeadWaiters, ALiveWaitingWriterKeepsItsIntentPastTheIntentsExpiry) {
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(read_.get(), kAlice, 0, 30000, nullptr, nullptr), DLOCK_OK));
  auto writer = acquire_in_background(write_.get(), kBob, 20000);
  ASSERT_TRUE(wait_until([&] { return key_exists(server(), kIntent); }, milliseconds(3000)));
  // Longer than the intent's own expiry: the waiting writer's heartbeat keeps it.
  std::this_thread::sleep_for(milliseconds(2 * kIntentOutlivesMs));
  EXPECT_TRUE(key_exists(server(), kIntent)) << "a live writer's intent lapsed";
  const ClientHandle other = open();
  const LockHandle other_read = side(other.get(), false);
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(other_read.get(), kBob, 0, 10000, nullptr, nullptr),
                        DLOCK_NOT_ACQUIRED))
      << "a new reader passed a live waiting writer";
  ASSERT_TRUE(status_is(dlock_lock_release_owner(read_.get(), kAlice), DLOCK_OK));
  ASSERT_EQ(writer.wait_for(milliseconds(3000)), std::future_status::ready);
  EXPECT_TRUE(status_is(writer.get().status, DLOCK_OK));
}

// The heartbeat that keeps the intent also sees a lock freed without a
// release message (deleted here, as a lost message or a crashed holder
// leaves it): the writer tries at once, not when the holder's lease would end.
TEST_F(RwLockDeadWaiters, AWaitingWriterTakesALockFreedWithoutAMessageWithinAHeartbeat) {
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(read_.get(), kAlice, 0, 30000, nullptr, nullptr), DLOCK_OK));
  auto writer = acquire_in_background(write_.get(), kBob, 20000);
  ASSERT_TRUE(wait_until([&] { return key_exists(server(), kIntent); }, milliseconds(3000)));
  const int64_t freed_ns = monotonic_ns();
  server().command({"DEL", kName});
  ASSERT_EQ(writer.wait_for(milliseconds(5000)), std::future_status::ready);
  const AcquireOutcome outcome = writer.get();
  EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
  EXPECT_LT(ms_between(freed_ns, outcome.returned_ns), 1000) << "the writer slept on past a free lock";
}

TEST_F(RwLockDeadWaiters, AnUpgradeThatTimesOutLetsReadersInAtOnce) {
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(read_.get(), kAlice, 0, 30000, nullptr, nullptr), DLOCK_OK));
  const ClientHandle other = open();
  const LockHandle other_read = side(other.get(), false);
  // Alice asks for the write side while she reads: refused until she lets the read side go.
  auto upgrade = std::async(std::launch::async, [&] {
    const int status = dlock_lock_acquire_owner(write_.get(), kAlice, 1000, 10000, nullptr, nullptr);
    return std::make_pair(status, monotonic_ns());
  });
  ASSERT_TRUE(wait_until([&] { return key_exists(server(), kIntent); }, milliseconds(3000)));
  const auto [status, gave_up_ns] = upgrade.get();
  EXPECT_TRUE(status_is(status, DLOCK_NOT_ACQUIRED));

  auto reader = acquire_in_background(other_read.get(), kBob, 5000);
  ASSERT_EQ(reader.wait_for(milliseconds(10000)), std::future_status::ready);
  const AcquireOutcome outcome = reader.get();
  EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
  EXPECT_LT(ms_between(gave_up_ns, outcome.returned_ns), 300) << "the failed upgrade still held readers back";
  EXPECT_FALSE(key_exists(server(), kIntent));
  ASSERT_TRUE(status_is(dlock_lock_release_owner(read_.get(), kAlice), DLOCK_OK));
}

}  // namespace
}  // namespace dlock_test
