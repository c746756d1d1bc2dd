// Redis Cluster: a master that stops answering (SIGSTOP, shorter than the
// cluster's node timeout, so no failover) costs only its own holds and
// calls: renewals, acquires and wake-ups on the other masters go on.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "background_acquire.hpp"
#include "cluster_suite.hpp"
#include "dlock_handles.hpp"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_cluster.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

class ClusterStall : public ClusterSuite {};

// Each master's holds are renewed in their own batch: a master that stops
// answering for longer than a lease costs its own holds, never those on the
// others, which stay held on their servers and are not reported lost.
TEST_F(ClusterStall, AStalledMasterCostsOnlyItsOwnHolds) {
  constexpr int64_t kWatchdogMs = 600;
  const std::vector<int> masters = cluster().master_ports();
  const auto names = cluster().names_on_each_master(2, "stalled-");
  for (std::size_t stalled = 0; stalled < masters.size(); ++stalled) {
    const ClientHandle client = open(kWatchdogMs);
    std::vector<LockHandle> locks;
    std::vector<std::unique_ptr<LostRecorder>> lost;
    std::vector<std::string> fields;
    std::vector<int> owners;
    for (std::size_t master = 0; master < names.size(); ++master) {
      if (master == stalled) continue;
      for (const std::string& name : names[master]) {
        owners.push_back(masters[master]);
        locks.push_back(new_lock(client.get(), name));
        lost.push_back(std::make_unique<LostRecorder>());
        lost.back()->attach(locks.back().get());
        ASSERT_TRUE(status_is(dlock_lock_acquire(locks.back().get(), 0, -1, nullptr), DLOCK_OK)) << name;
        fields.push_back(holder_field(name));
      }
    }
    const LockHandle on_stalled = new_lock(client.get(), names[stalled][0]);
    ASSERT_TRUE(status_is(dlock_lock_acquire(on_stalled.get(), 0, -1, nullptr), DLOCK_OK));
    // Shorter than cluster-node-timeout: no failover, only silence.
    cluster().node(masters[stalled]).pause();
    std::this_thread::sleep_for(milliseconds(800));
    cluster().node(masters[stalled]).resume();

    std::this_thread::sleep_for(milliseconds(2 * kWatchdogMs));
    for (std::size_t i = 0; i < locks.size(); ++i) {
      const std::string name = dlock_lock_name(locks[i].get());
      EXPECT_EQ(lost[i]->calls(), 0) << name << " on master " << owners[i] << " reported lost while master "
                                     << masters[stalled] << " stalled";
      EXPECT_EQ(holder_field(name), fields[i]) << name << " still held";
      EXPECT_TRUE(status_is(dlock_lock_release(locks[i].get()), DLOCK_OK)) << name;
    }
    dlock_lock_release(on_stalled.get());  // OK or DLOCK_E_LOST: the stall outlasted its lease
  }
}

// A renewal that timed out on a stalled master makes the client ask for the
// slot map again; an acquire on a healthy master meanwhile is served at once,
// not after the stalled master's command timeout.
TEST_F(ClusterStall, AnAcquireOnAHealthyMasterDoesNotWaitForAStalledOne) {
  const std::vector<int> masters = cluster().master_ports();
  const auto names = cluster().names_on_each_master(1, "bystander-");
  const ClientHandle client = open(600);
  const LockHandle on_stalled = new_lock(client.get(), names[0][0]);
  const LockHandle on_healthy = new_lock(client.get(), names[1][0]);
  ASSERT_TRUE(status_is(dlock_lock_acquire(on_stalled.get(), 0, -1, nullptr), DLOCK_OK));
  cluster().node(masters[0]).pause();
  std::this_thread::sleep_for(milliseconds(700));  // past the renewal's deadline
  const int64_t called_ns = monotonic_ns();
  const int status = dlock_lock_acquire(on_healthy.get(), 0, -1, nullptr);
  const int64_t call_ms = ms_between(called_ns, monotonic_ns());
  cluster().node(masters[0]).resume();
  EXPECT_TRUE(status_is(status, DLOCK_OK));
  EXPECT_LT(call_ms, 300) << "an acquire on master " << masters[1] << " waited for the stalled "
                          << masters[0];
  if (status == DLOCK_OK) EXPECT_TRUE(status_is(dlock_lock_release(on_healthy.get()), DLOCK_OK));
  dlock_lock_release(on_stalled.get());  // OK or DLOCK_E_LOST: the stall outlasted its lease
}

// The waiters of one client share a subscriber connection per node: a
// release on a healthy master wakes its waiter while another master of the
// same client's waiters stalls.
TEST_F(ClusterStall, AStalledMasterDoesNotDelayWakeUpsFromTheOthers) {
  const std::vector<int> masters = cluster().master_ports();
  const auto names = cluster().names_on_each_master(1, "unstalled-");
  const std::string& on_stalled = names[0][0];
  const std::string& on_healthy = names[1][0];
  const ClientHandle holder = open();
  const ClientHandle waiting = open();
  const LockHandle held_stalled = new_lock(holder.get(), on_stalled);
  const LockHandle held_healthy = new_lock(holder.get(), on_healthy);
  const LockHandle wanted_stalled = new_lock(waiting.get(), on_stalled);
  const LockHandle wanted_healthy = new_lock(waiting.get(), on_healthy);
  ASSERT_TRUE(status_is(dlock_lock_acquire(held_stalled.get(), 0, kLongLeaseMs, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire(held_healthy.get(), 0, kLongLeaseMs, nullptr), DLOCK_OK));
  auto waiter_stalled = acquire_in_background(wanted_stalled.get(), kWaiterOwner, kLongLeaseMs);
  auto waiter_healthy = acquire_in_background(wanted_healthy.get(), kWaiterOwner + 1, kLongLeaseMs);
  ASSERT_TRUE(await_waiter_listening(on_stalled));
  ASSERT_TRUE(await_waiter_listening(on_healthy));

  cluster().node(masters[0]).pause();
  const int64_t released_ns = monotonic_ns();
  const int released = dlock_lock_release(held_healthy.get());
  const bool woken = waiter_healthy.wait_for(milliseconds(600)) == std::future_status::ready;
  cluster().node(masters[0]).resume();
  ASSERT_TRUE(status_is(released, DLOCK_OK));
  ASSERT_TRUE(woken) << "the stalled master held up a wake-up from another";
  EXPECT_LT(ms_between(released_ns, waiter_healthy.get().returned_ns), 300);

  ASSERT_TRUE(status_is(dlock_lock_release(held_stalled.get()), DLOCK_OK));
  ASSERT_EQ(waiter_stalled.wait_for(milliseconds(kLongLeaseMs / 2)), std::future_status::ready);
  EXPECT_TRUE(status_is(waiter_stalled.get().status, DLOCK_OK));
}

}  // namespace
}  // namespace dlock_test
