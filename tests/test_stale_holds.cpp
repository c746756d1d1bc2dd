// S4 when Redis goes back in time: a restart from an older snapshot, or a
// failover to a replica that missed the latest grants, brings back a hold of
// A's that A has since released, and loses the grants after it. A's next
// acquire finds its own field there; it is a fresh grant, not a retry of the
// old one, so its token must be above every token granted before.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "dlock.h"
#include "redis_fixture.hpp"
#include "redis_info.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "stale";
constexpr uint64_t kA = 1;
constexpr uint64_t kB = 2;
// Long enough for the old hold to be alive again after the server comes back.
constexpr int64_t kLeaseMs = 60000;

// How a test makes one kind of lock on a client.
using LockMaker = std::function<LockHandle(dlock_client*)>;

LockHandle read_side(dlock_client* client) {
  dlock_lock* lock = nullptr;
  require_ok(dlock_rwlock_read_lock(client, kName, &lock), "dlock_rwlock_read_lock");
  return LockHandle(lock);
}

LockHandle write_side(dlock_client* client) {
  dlock_lock* lock = nullptr;
  require_ok(dlock_rwlock_write_lock(client, kName, &lock), "dlock_rwlock_write_lock");
  return LockHandle(lock);
}

uint64_t acquire(dlock_lock* lock, uint64_t owner) {
  uint64_t token = 0;
  require_ok(dlock_lock_acquire_owner(lock, owner, 0, kLeaseMs, nullptr, &token), "acquire");
  return token;
}

void release(dlock_lock* lock, uint64_t owner) {
  require_ok(dlock_lock_release_owner(lock, owner), "release");
}

std::string replication_field(RedisServer& server, const std::string& field) {
  return parse_info(server.command({"INFO", "replication"}).str)[field];
}

// Replicas sync at once: Redis waits 5 s by default before a diskless full sync.
const char* const kSyncAtOnce = "repl-diskless-sync-delay 0";

class StaleHolds : public RedisFixture {
 protected:
  RedisServerConfig server_config() const override {
    RedisServerConfig config;
    config.extra_lines = {kSyncAtOnce};
    return config;
  }

  // A holds (tA), the server's state is kept as it is now (`keep_state`), A
  // releases, B holds (tB) and releases, then the kept state comes back
  // (`bring_back`): A's next acquire must be granted above tB.
  void expect_tokens_rise_after_going_back(const LockMaker& make, const std::function<void()>& keep_state,
                                           const std::function<void()>& bring_back) {
    const ClientHandle client = open();
    const LockHandle lock = make(client.get());
    const uint64_t first = acquire(lock.get(), kA);
    keep_state();
    release(lock.get(), kA);
    const uint64_t second = acquire(lock.get(), kB);
    ASSERT_GT(second, first);
    release(lock.get(), kB);

    bring_back();
    ASSERT_TRUE(key_exists(server(), kName)) << "the old hold did not come back: the test proves nothing";

    const uint64_t again = acquire(lock.get(), kA);
    EXPECT_GT(again, second) << "A's old hold gave A its old token " << first << " back";
    release(lock.get(), kA);
  }

  void expect_tokens_rise_after_a_snapshot_restart(const LockMaker& make) {
    expect_tokens_rise_after_going_back(
        make, [&] { server().command({"SAVE"}); },
        [&] {
          server().kill9();  // no shutdown save: the older dump.rdb is what loads
          server().restart();
        });
  }
};

TEST_F(StaleHolds, ALockRestoredFromAnOlderSnapshotGivesAHigherToken) {
  expect_tokens_rise_after_a_snapshot_restart([](dlock_client* client) { return new_lock(client, kName); });
}

TEST_F(StaleHolds, AFairLockRestoredFromAnOlderSnapshotGivesAHigherToken) {
  expect_tokens_rise_after_a_snapshot_restart([](dlock_client* client) { return new_fair_lock(client, kName); });
}

TEST_F(StaleHolds, AWriteLockRestoredFromAnOlderSnapshotGivesAHigherToken) {
  expect_tokens_rise_after_a_snapshot_restart(write_side);
}

TEST_F(StaleHolds, AReadLockRestoredFromAnOlderSnapshotGivesAHigherToken) {
  expect_tokens_rise_after_a_snapshot_restart(read_side);
}

// The failover: a replica that stopped replicating after A's grant becomes the
// data the clients see. The test's server takes the replica's data (it
// replicates from it, then is promoted again), which is what the clients of a
// failover to that replica find, without their moving to another address.
TEST_F(StaleHolds, AFailoverToAReplicaThatMissedGrantsGivesAHigherToken) {
  RedisServerConfig replica_config;
  replica_config.extra_lines = {kSyncAtOnce, "replicaof 127.0.0.1 " + std::to_string(server().port())};
  RedisServer replica(replica_config);
  ASSERT_TRUE(wait_until([&] { return replication_field(replica, "master_link_status") == "up"; },
                         milliseconds(10000)));
  expect_tokens_rise_after_going_back(
      [](dlock_client* client) { return new_lock(client, kName); },
      [&] {
        ASSERT_TRUE(wait_until([&] { return key_exists(replica, kName); }, milliseconds(5000)))
            << "A's grant never reached the replica";
        replica.command({"REPLICAOF", "NO", "ONE"});
      },
      [&] {
        server().command({"REPLICAOF", "127.0.0.1", std::to_string(replica.port())});
        ASSERT_TRUE(wait_until([&] { return replication_field(server(), "master_link_status") == "up"; },
                               milliseconds(10000)));
        server().command({"REPLICAOF", "NO", "ONE"});
      });
}

}  // namespace
}  // namespace dlock_test
