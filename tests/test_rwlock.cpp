// The read-write lock through the C ABI: readers share, a writer excludes,
// re-entry and downgrade, Redisson's layout (mode, fields, per-hold timeout
// keys, channel), the watchdog, loss, waiting writers and their intent, bad input.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <map>
#include <string>
#include <thread>

#include "background_acquire.hpp"
#include "dlock.h"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "rw";
constexpr uint64_t kAlice = 1;
constexpr uint64_t kBob = 2;
constexpr uint64_t kCarol = 3;

LockHandle read_side(dlock_client* client, const char* name = kName) {
  dlock_lock* lock = nullptr;
  require_ok(dlock_rwlock_read_lock(client, name, &lock), "dlock_rwlock_read_lock");
  return LockHandle(lock);
}

LockHandle write_side(dlock_client* client, const char* name = kName) {
  dlock_lock* lock = nullptr;
  require_ok(dlock_rwlock_write_lock(client, name, &lock), "dlock_rwlock_write_lock");
  return LockHandle(lock);
}

int acquire(dlock_lock* lock, uint64_t owner, int64_t wait_ms = 0, int64_t lease_ms = -1,
            uint64_t* token = nullptr) {
  return dlock_lock_acquire_owner(lock, owner, wait_ms, lease_ms, nullptr, token);
}

int release(dlock_lock* lock, uint64_t owner) {
  return dlock_lock_release_owner(lock, owner);
}

// The hash's owner fields, without 'mode'.
std::map<std::string, std::string> owners(RedisServer& server) {
  auto fields = hash_fields(server, kName);
  fields.erase("mode");
  return fields;
}

std::string mode(RedisServer& server) {
  const auto fields = hash_fields(server, kName);
  const auto it = fields.find("mode");
  return it == fields.end() ? "" : it->second;
}

// Redisson's timeout key of a read hold: {name}:<field>:rwlock_timeout:1.
std::string timeout_key(const std::string& field) {
  return std::string("{") + kName + "}:" + field + ":rwlock_timeout:1";
}

class RwLock : public RedisFixture {};

TEST_F(RwLock, ReadersShareAndEachHoldHasItsTimeoutKey) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice, 0, 10000), DLOCK_OK));
  ASSERT_TRUE(status_is(acquire(read.get(), kBob, 0, 10000), DLOCK_OK)) << "a second reader was refused";
  EXPECT_EQ(mode(server()), "read");
  const auto fields = owners(server());
  ASSERT_EQ(fields.size(), 2u);
  for (const auto& [field, count] : fields) {
    EXPECT_EQ(count, "1");
    EXPECT_GT(pttl(server(), timeout_key(field)), 9000) << "a read hold without its timeout key: " << field;
  }
  int locked = 0;
  ASSERT_TRUE(status_is(dlock_lock_is_locked(read.get(), &locked), DLOCK_OK));
  EXPECT_EQ(locked, 1);
  ASSERT_TRUE(status_is(release(read.get(), kAlice), DLOCK_OK));
  EXPECT_TRUE(key_exists(server(), kName)) << "one reader's release ended the other's hold";
  ASSERT_TRUE(status_is(release(read.get(), kBob), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
  for (const auto& [field, count] : fields) EXPECT_FALSE(key_exists(server(), timeout_key(field)));
}

TEST_F(RwLock, AWriterExcludesReadersAndWriters) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice), DLOCK_OK));
  EXPECT_TRUE(status_is(acquire(write.get(), kBob), DLOCK_NOT_ACQUIRED))
      << "a writer entered beside a reader";
  ASSERT_TRUE(status_is(release(read.get(), kAlice), DLOCK_OK));

  ASSERT_TRUE(status_is(acquire(write.get(), kBob), DLOCK_OK));
  EXPECT_EQ(mode(server()), "write");
  EXPECT_EQ(owners(server()).size(), 1u);
  EXPECT_EQ(owners(server()).begin()->first.substr(owners(server()).begin()->first.size() - 6), ":write");
  EXPECT_TRUE(status_is(acquire(read.get(), kAlice), DLOCK_NOT_ACQUIRED))
      << "a reader entered beside a writer";
  EXPECT_TRUE(status_is(acquire(write.get(), kCarol), DLOCK_NOT_ACQUIRED)) << "two writers";
  int held = 0;
  ASSERT_TRUE(status_is(dlock_lock_is_held_owner(write.get(), kBob, &held), DLOCK_OK));
  EXPECT_EQ(held, 1);
  ASSERT_TRUE(status_is(dlock_lock_is_held_owner(read.get(), kBob, &held), DLOCK_OK));
  EXPECT_EQ(held, 0) << "the write hold counted as a read hold";
  ASSERT_TRUE(status_is(release(write.get(), kBob), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
  EXPECT_TRUE(status_is(release(write.get(), kBob), DLOCK_E_NOT_OWNER));
}

TEST_F(RwLock, BothSidesAreReentrantWithOneFieldAndOneToken) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  for (dlock_lock* side : {read.get(), write.get()}) {
    uint64_t first = 0;
    uint64_t again = 0;
    ASSERT_TRUE(status_is(acquire(side, kAlice, 0, -1, &first), DLOCK_OK));
    ASSERT_TRUE(status_is(acquire(side, kAlice, 0, -1, &again), DLOCK_OK));
    EXPECT_EQ(again, first);
    int count = 0;
    ASSERT_TRUE(status_is(dlock_lock_hold_count_owner(side, kAlice, &count), DLOCK_OK));
    EXPECT_EQ(count, 2);
    ASSERT_EQ(owners(server()).size(), 1u);
    EXPECT_EQ(owners(server()).begin()->second, "1") << "re-entries are counted by the client";
    ASSERT_TRUE(status_is(release(side, kAlice), DLOCK_OK));
    EXPECT_TRUE(key_exists(server(), kName)) << "released before the outermost release";
    ASSERT_TRUE(status_is(release(side, kAlice), DLOCK_OK));
    EXPECT_FALSE(key_exists(server(), kName));
  }
}

TEST_F(RwLock, AWriterMayDowngradeToARead) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  uint64_t write_token = 0;
  uint64_t read_token = 0;
  ASSERT_TRUE(status_is(acquire(write.get(), kAlice, 0, -1, &write_token), DLOCK_OK));
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice, 0, -1, &read_token), DLOCK_OK))
      << "a writer could not read";
  EXPECT_GT(read_token, write_token);
  EXPECT_TRUE(status_is(acquire(read.get(), kBob), DLOCK_NOT_ACQUIRED))
      << "another reader entered beside a writer";

  ASSERT_TRUE(status_is(release(write.get(), kAlice), DLOCK_OK));
  EXPECT_EQ(mode(server()), "read") << "the downgraded hold is a read hold";
  EXPECT_TRUE(status_is(acquire(write.get(), kBob), DLOCK_NOT_ACQUIRED));
  ASSERT_TRUE(status_is(acquire(read.get(), kBob), DLOCK_OK)) << "readers wait after the writer left";
  ASSERT_TRUE(status_is(release(read.get(), kAlice), DLOCK_OK));
  ASSERT_TRUE(status_is(release(read.get(), kBob), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));

  // The other order: reading first, then releasing the read hold before the write hold.
  ASSERT_TRUE(status_is(acquire(write.get(), kAlice), DLOCK_OK));
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice), DLOCK_OK));
  ASSERT_TRUE(status_is(release(read.get(), kAlice), DLOCK_OK));
  EXPECT_EQ(mode(server()), "write") << "releasing the read hold let the write hold go";
  EXPECT_TRUE(status_is(acquire(read.get(), kBob), DLOCK_NOT_ACQUIRED));
  ASSERT_TRUE(status_is(release(write.get(), kAlice), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
}

TEST_F(RwLock, TokensRiseAcrossBothSides) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  uint64_t last = 0;
  for (int round = 0; round < 3; ++round) {
    for (dlock_lock* side : {read.get(), write.get()}) {
      uint64_t token = 0;
      ASSERT_TRUE(status_is(acquire(side, kAlice, 0, -1, &token), DLOCK_OK));
      EXPECT_GT(token, last);
      last = token;
      ASSERT_TRUE(status_is(release(side, kAlice), DLOCK_OK));
    }
  }
  EXPECT_EQ(string_value(server(), "dlock_rwlock_token:{rw}"), std::to_string(last));
  EXPECT_FALSE(key_exists(server(), fencing_counter_key(kName)))
      << "the lock's (RFencedLock's) counter was used";
}

TEST_F(RwLock, AReleaseWakesAWaitingWriterAtOnce) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice, 0, 30000), DLOCK_OK));
  auto writer = acquire_in_background(write.get(), kBob, 20000);
  std::this_thread::sleep_for(milliseconds(200));
  ASSERT_EQ(writer.wait_for(milliseconds(0)), std::future_status::timeout) << "granted beside a reader";
  const int64_t released_ns = monotonic_ns();
  ASSERT_TRUE(status_is(release(read.get(), kAlice), DLOCK_OK));
  ASSERT_EQ(writer.wait_for(milliseconds(5000)), std::future_status::ready);
  const AcquireOutcome outcome = writer.get();
  ASSERT_TRUE(status_is(outcome.status, DLOCK_OK));
  EXPECT_LT(ms_between(released_ns, outcome.returned_ns), 500) << "the writer slept past the release";
}

TEST_F(RwLock, AWriterReleaseWakesEveryWaitingReader) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  ASSERT_TRUE(status_is(acquire(write.get(), kAlice, 0, 30000), DLOCK_OK));
  std::promise<void> go;
  std::shared_future<void> released = go.get_future().share();
  auto reader = [&](uint64_t owner) {
    return std::async(std::launch::async, [&, owner] {
      const int status = acquire(read.get(), owner, 20000, 10000);
      const int64_t returned = monotonic_ns();
      released.wait();  // both inside at once before either leaves
      if (status == DLOCK_OK) release(read.get(), owner);
      return std::make_pair(status, returned);
    });
  };
  auto first = reader(kBob);
  auto second = reader(kCarol);
  std::this_thread::sleep_for(milliseconds(200));
  const int64_t released_ns = monotonic_ns();
  ASSERT_TRUE(status_is(release(write.get(), kAlice), DLOCK_OK));
  ASSERT_TRUE(wait_until([&] { return owners(server()).size() == 2; }, milliseconds(3000)))
      << "both readers should be inside at once";
  go.set_value();
  for (auto* result : {&first, &second}) {
    const auto [status, returned] = result->get();
    EXPECT_TRUE(status_is(status, DLOCK_OK));
    EXPECT_LT(ms_between(released_ns, returned), 1000) << "a reader slept past the writer's release";
  }
}

TEST_F(RwLock, AWaitingWriterHoldsBackNewReadersButNotReentries) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice, 0, 30000), DLOCK_OK));
  auto writer = acquire_in_background(write.get(), kBob, 20000);
  ASSERT_TRUE(wait_until([&] { return key_exists(server(), "{rw}:write_intent"); }, milliseconds(3000)))
      << "the waiting writer left no intent";
  EXPECT_TRUE(status_is(acquire(read.get(), kCarol), DLOCK_NOT_ACQUIRED))
      << "a new reader passed a waiting writer";
  EXPECT_TRUE(status_is(acquire(read.get(), kAlice), DLOCK_OK))
      << "a reader's re-entry waited for the writer";
  ASSERT_TRUE(status_is(release(read.get(), kAlice), DLOCK_OK));
  ASSERT_TRUE(status_is(release(read.get(), kAlice), DLOCK_OK));
  ASSERT_EQ(writer.wait_for(milliseconds(3000)), std::future_status::ready);
  EXPECT_TRUE(status_is(writer.get().status, DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), "{rw}:write_intent")) << "the granted writer left its intent behind";
}

TEST_F(RwLock, WithoutWriterPreferenceReadersPassAWaitingWriter) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  EXPECT_TRUE(invalid_naming(dlock_rwlock_set_writer_preference(read.get(), 0), "write_side"));
  EXPECT_TRUE(invalid_naming(dlock_rwlock_set_writer_preference(nullptr, 0), "write_side"));
  ASSERT_TRUE(status_is(dlock_rwlock_set_writer_preference(write.get(), 0), DLOCK_OK));
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice, 0, 30000), DLOCK_OK));
  auto writer = acquire_in_background(write.get(), kBob, 20000);
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_FALSE(key_exists(server(), "{rw}:write_intent"));
  EXPECT_TRUE(status_is(acquire(read.get(), kCarol), DLOCK_OK)) << "readers are preferred without the intent";
  ASSERT_TRUE(status_is(release(read.get(), kCarol), DLOCK_OK));
  ASSERT_TRUE(status_is(release(read.get(), kAlice), DLOCK_OK));
  ASSERT_EQ(writer.wait_for(milliseconds(3000)), std::future_status::ready);
  EXPECT_TRUE(status_is(writer.get().status, DLOCK_OK));
}

TEST_F(RwLock, AWriterThatStopsWaitingLeavesNoLastingIntent) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice, 0, 30000), DLOCK_OK));
  EXPECT_TRUE(status_is(acquire(write.get(), kBob, 0), DLOCK_NOT_ACQUIRED));
  EXPECT_FALSE(key_exists(server(), "{rw}:write_intent")) << "a single attempt left an intent";
  EXPECT_TRUE(status_is(acquire(write.get(), kBob, 300), DLOCK_NOT_ACQUIRED));
  // The wait heartbeat renews the intent while the writer waits and takes it
  // off the server once the writer gives up, from its own thread: until then
  // it lives at most the heartbeat's 1.5 s.
  EXPECT_LE(pttl(server(), "{rw}:write_intent"), 1500) << "the intent outlives its liveness window";
  EXPECT_TRUE(wait_until([&] { return !key_exists(server(), "{rw}:write_intent"); }, milliseconds(200)))
      << "the writer that gave up left its intent";
  ASSERT_TRUE(status_is(acquire(read.get(), kCarol), DLOCK_OK)) << "readers stayed held back";
}

TEST_F(RwLock, ACancelledWriterLetsTheReadersItHeldBackIn) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice, 0, 30000), DLOCK_OK));
  const CancelHandle cancel = new_cancel();
  auto writer = std::async(std::launch::async, [&] {
    return dlock_lock_acquire_owner(write.get(), kBob, -1, -1, cancel.get(), nullptr);
  });
  ASSERT_TRUE(wait_until([&] { return key_exists(server(), "{rw}:write_intent"); }, milliseconds(3000)));
  auto reader = std::async(std::launch::async, [&] {
    const int status = acquire(read.get(), kCarol, 20000, 10000);
    const int64_t returned = monotonic_ns();
    if (status == DLOCK_OK) release(read.get(), kCarol);
    return std::make_pair(status, returned);
  });
  std::this_thread::sleep_for(milliseconds(200));
  ASSERT_EQ(reader.wait_for(milliseconds(0)), std::future_status::timeout)
      << "the reader passed a waiting writer";
  const int64_t cancelled_ns = monotonic_ns();
  ASSERT_TRUE(status_is(dlock_cancel_trigger(cancel.get()), DLOCK_OK));
  EXPECT_TRUE(status_is(writer.get(), DLOCK_E_INTERRUPTED));
  const auto [status, returned] = reader.get();
  EXPECT_TRUE(status_is(status, DLOCK_OK));
  EXPECT_LT(ms_between(cancelled_ns, returned), 500) << "the reader waited out the cancelled writer's intent";
  ASSERT_TRUE(status_is(release(read.get(), kAlice), DLOCK_OK));
}

TEST_F(RwLock, CancelEndsAWaitingWriterQuickly) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice, 0, 30000), DLOCK_OK));
  const CancelHandle cancel = new_cancel();
  auto waiter = std::async(std::launch::async, [&] {
    const int status = dlock_lock_acquire_owner(write.get(), kBob, -1, -1, cancel.get(), nullptr);
    return std::make_pair(status, monotonic_ns());
  });
  std::this_thread::sleep_for(milliseconds(200));
  const int64_t cancelled_ns = monotonic_ns();
  ASSERT_TRUE(status_is(dlock_cancel_trigger(cancel.get()), DLOCK_OK));
  ASSERT_EQ(waiter.wait_for(milliseconds(2000)), std::future_status::ready);
  const auto [status, returned] = waiter.get();
  EXPECT_TRUE(status_is(status, DLOCK_E_INTERRUPTED));
  EXPECT_LT(ms_between(cancelled_ns, returned), 50);
}

TEST_F(RwLock, TheWatchdogKeepsReadAndWriteHoldsAlive) {
  const ClientHandle client = open(600);
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get(), "rw2");
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice), DLOCK_OK));
  ASSERT_TRUE(status_is(acquire(write.get(), kAlice), DLOCK_OK));
  const std::string field = owners(server()).begin()->first;
  const int64_t until = monotonic_ms() + 2000;
  while (monotonic_ms() < until) {
    ASSERT_GT(pttl(server(), kName), 0) << "the read hold's hash expired";
    ASSERT_GT(pttl(server(), timeout_key(field)), 0) << "the read hold's timeout key expired";
    ASSERT_GT(pttl(server(), "rw2"), 0) << "the write hold expired";
    std::this_thread::sleep_for(milliseconds(50));
  }
  EXPECT_TRUE(status_is(release(read.get(), kAlice), DLOCK_OK));
  EXPECT_TRUE(status_is(release(write.get(), kAlice), DLOCK_OK));
}

TEST_F(RwLock, AReadHoldWhoseTimeoutKeyVanishedIsReportedLost) {
  const ClientHandle client = open(600);
  const LockHandle read = read_side(client.get());
  LostRecorder lost;
  lost.attach(read.get());
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice), DLOCK_OK));
  server().command({"DEL", timeout_key(owners(server()).begin()->first)});
  ASSERT_TRUE(wait_until([&] { return lost.calls() == 1; }, milliseconds(2000))) << "the loss went unnoticed";
  EXPECT_TRUE(status_is(release(read.get(), kAlice), DLOCK_E_LOST));
  EXPECT_EQ(lost.calls(), 1);
}

TEST_F(RwLock, FixedLeasesRunOut) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice, 0, 300), DLOCK_OK));
  const int64_t started = monotonic_ms();
  ASSERT_TRUE(status_is(acquire(write.get(), kBob, 5000, 300), DLOCK_OK));
  EXPECT_GE(monotonic_ms() - started, 200) << "the writer entered before the read lease ran out";
  EXPECT_TRUE(status_is(release(read.get(), kAlice), DLOCK_E_LOST));
  ASSERT_TRUE(status_is(release(write.get(), kBob), DLOCK_OK));
}

TEST_F(RwLock, AsynchronousAcquireAndRelease) {
  const ClientHandle client = open();
  const LockHandle write = write_side(client.get());
  std::promise<int> done;
  ASSERT_TRUE(status_is(dlock_lock_acquire_async(
                            write.get(), kAlice, 1000, -1, nullptr,
                            [](int status, uint64_t, const char*, void* ctx) {
                              static_cast<std::promise<int>*>(ctx)->set_value(status);
                            },
                            &done),
                        DLOCK_OK));
  EXPECT_TRUE(status_is(done.get_future().get(), DLOCK_OK));
  EXPECT_EQ(mode(server()), "write");
  ASSERT_TRUE(status_is(release(write.get(), kAlice), DLOCK_OK));
}

TEST_F(RwLock, BadInputIsRefusedByName) {
  const ClientHandle client = open();
  dlock_lock* lock = nullptr;
  EXPECT_TRUE(invalid_naming(dlock_rwlock_read_lock(nullptr, kName, &lock), "client"));
  EXPECT_TRUE(invalid_naming(dlock_rwlock_write_lock(client.get(), nullptr, &lock), "name"));
  EXPECT_TRUE(invalid_naming(dlock_rwlock_write_lock(client.get(), kName, nullptr), "out"));
  EXPECT_TRUE(invalid_naming(dlock_rwlock_read_lock(client.get(), "", &lock), "name"));
  EXPECT_TRUE(invalid_naming(dlock_rwlock_read_lock(client.get(), "{x}", &lock), "name"));
  EXPECT_TRUE(
      invalid_naming(dlock_rwlock_read_lock(client.get(), std::string(2000, 'n').c_str(), &lock), "name"));
  EXPECT_EQ(lock, nullptr);

  const LockHandle write = write_side(client.get());
  EXPECT_TRUE(invalid_naming(acquire(write.get(), kAlice, 0, 0), "lease"));
  EXPECT_TRUE(status_is(dlock_lock_release_keeping(write.get(), 1000), DLOCK_E_UNSUPPORTED));

  server().command({"SET", kName, "a string"});
  const LockHandle read = read_side(client.get());
  EXPECT_TRUE(status_is(acquire(read.get(), kAlice), DLOCK_E_PROTOCOL));
  EXPECT_TRUE(status_is(acquire(write.get(), kAlice), DLOCK_E_PROTOCOL));
  EXPECT_EQ(string_value(server(), kName), "a string") << "a key of the wrong type was touched";
}

TEST_F(RwLock, AMultiLockTakesAWriteSideAsAMember) {
  const ClientHandle client = open();
  const LockHandle write = write_side(client.get());
  const LockHandle other = new_lock(client.get(), "plain");
  const LockHandle read = read_side(client.get());
  dlock_lock* const members[] = {write.get(), other.get()};
  dlock_multilock* multilock = nullptr;
  ASSERT_TRUE(status_is(dlock_multilock_new(members, 2, &multilock), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_multilock_acquire_owner(multilock, kAlice, 0, -1, nullptr), DLOCK_OK));
  EXPECT_EQ(mode(server()), "write");
  EXPECT_TRUE(key_exists(server(), "plain"));
  EXPECT_TRUE(status_is(acquire(read.get(), kBob), DLOCK_NOT_ACQUIRED))
      << "a reader entered beside the group";
  ASSERT_TRUE(status_is(dlock_multilock_release_owner(multilock, kAlice), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
  EXPECT_FALSE(key_exists(server(), "plain"));
  dlock_multilock_free(multilock);
}

TEST_F(RwLock, ForceReleaseActsOnItsSideOnly) {
  const ClientHandle client = open();
  const LockHandle read = read_side(client.get());
  const LockHandle write = write_side(client.get());
  ASSERT_TRUE(status_is(acquire(read.get(), kAlice), DLOCK_OK));
  int released = -1;
  ASSERT_TRUE(status_is(dlock_lock_force_release_checked(write.get(), &released), DLOCK_OK));
  EXPECT_EQ(released, 0) << "the write side's force release ended a read hold";
  ASSERT_TRUE(status_is(dlock_lock_force_release_checked(read.get(), &released), DLOCK_OK));
  EXPECT_EQ(released, 1);
  EXPECT_FALSE(key_exists(server(), kName));
}

}  // namespace
}  // namespace dlock_test
