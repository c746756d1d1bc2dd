// A client opened on zookeeper:// through the C ABI: the lock calls every
// binding uses, served by the ZooKeeper backend in Curator's layout, against
// a real ZooKeeper server the suite starts on a loopback port.
#include <dlock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "support/background_acquire.hpp"
#include "support/child_process.hpp"
#include "support/fenced_store.hpp"
#include "support/forked_child.hpp"
#include "support/log_capture.hpp"
#include "support/lost_recorder.hpp"
#include "support/monotonic_clock.hpp"
#include "support/redis_server.hpp"
#include "support/safety_checker.hpp"
#include "support/section_log.hpp"
#include "support/tcp_proxy.hpp"
#include "support/temp_dir.hpp"
#include "support/text_file.hpp"
#include "support/wait_until.hpp"
#include "support/worker_launcher.hpp"
#include "support/zk_ensemble.hpp"
#include "support/zk_one_node_suite.hpp"

namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

class ZkClient : public dlock_test::ZkOneNodeSuite {
 protected:
  static std::string url(const std::string& suffix = "") { return "zookeeper://" + hosts() + suffix; }

  dlock_client* open(const std::string& with = "") {
    dlock_client* client = nullptr;
    const int status = dlock_client_open(url(with).c_str(), nullptr, &client);
    EXPECT_EQ(status, DLOCK_OK) << dlock_last_error();
    if (client != nullptr) clients_.push_back(client);
    return client;
  }
  // A client whose every connection goes through `proxy`, which can cut it off.
  dlock_client* open_through(const dlock_test::TcpProxy& proxy, const std::string& with) {
    dlock_client* client = nullptr;
    const std::string through = "zookeeper://127.0.0.1:" + std::to_string(proxy.port()) + with;
    EXPECT_EQ(dlock_client_open(through.c_str(), nullptr, &client), DLOCK_OK) << dlock_last_error();
    if (client != nullptr) clients_.push_back(client);
    return client;
  }
  dlock_lock* lock(dlock_client* client, const std::string& name) {
    dlock_lock* handle = nullptr;
    EXPECT_EQ(dlock_lock_new(client, name.c_str(), &handle), DLOCK_OK) << dlock_last_error();
    if (handle != nullptr) locks_.push_back(handle);
    return handle;
  }
  dlock_lock* nonreentrant_lock(dlock_client* client, const std::string& name) {
    dlock_lock* handle = nullptr;
    EXPECT_EQ(dlock_lock_new_nonreentrant(client, name.c_str(), &handle), DLOCK_OK) << dlock_last_error();
    if (handle != nullptr) locks_.push_back(handle);
    return handle;
  }
  // Whether `condition` holds within two seconds.
  template <typename Condition>
  static bool eventually(Condition&& condition) {
    const auto deadline = Clock::now() + milliseconds(2000);
    while (!condition()) {
      if (Clock::now() > deadline) return false;
      std::this_thread::sleep_for(milliseconds(10));
    }
    return true;
  }

  void TearDown() override {
    for (dlock_lock* handle : locks_) dlock_lock_free(handle);
    for (dlock_client* client : clients_) dlock_client_close(client);
  }

  std::vector<dlock_client*> clients_;
  std::vector<dlock_lock*> locks_;
};

TEST_F(ZkClient, OpensAndNamesItsBackend) {
  dlock_client* client = open();
  ASSERT_NE(client, nullptr);
  EXPECT_STREQ(dlock_client_backend(client), "zookeeper");
}

TEST_F(ZkClient, ALockIsANodeInCuratorsLayoutReenteredWithoutARoundTripAndFenced) {
  dlock_client* a = open();
  dlock_client* b = open();
  dlock_lock* mine = lock(a, "/app/locks/report");
  dlock_lock* theirs = lock(b, "/app/locks/report");
  uint64_t first = 0;
  ASSERT_EQ(dlock_lock_acquire(mine, 0, -1, &first), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(first, 0u);
  // One node, as Curator's InterProcessMutex names it.
  const std::vector<std::string> nodes = children("/app/locks/report");
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].rfind("_c_", 0), 0u) << nodes[0];
  EXPECT_NE(nodes[0].find("-lock-"), std::string::npos) << nodes[0];
  // Re-entry: the same token, no second node.
  uint64_t again = 0;
  ASSERT_EQ(dlock_lock_acquire(mine, 0, -1, &again), DLOCK_OK);
  EXPECT_EQ(again, first);
  EXPECT_EQ(children("/app/locks/report").size(), 1u);
  // Another client is refused, and its node is gone soon after (the refusal
  // deletes it without waiting for the server).
  EXPECT_EQ(dlock_lock_acquire(theirs, 0, -1, nullptr), DLOCK_NOT_ACQUIRED);
  EXPECT_TRUE(eventually([&] { return children("/app/locks/report").size() == 1; }));
  // Two releases for two acquires; then the other client gets a larger token.
  ASSERT_EQ(dlock_lock_release(mine), DLOCK_OK);
  EXPECT_EQ(children("/app/locks/report").size(), 1u);
  ASSERT_EQ(dlock_lock_release(mine), DLOCK_OK) << dlock_last_error();
  EXPECT_TRUE(children("/app/locks/report").empty());
  uint64_t next = 0;
  ASSERT_EQ(dlock_lock_acquire(theirs, 0, -1, &next), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(next, first);
  EXPECT_EQ(dlock_lock_release(theirs), DLOCK_OK);
  // Not held: a release is refused, naming the lock.
  EXPECT_EQ(dlock_lock_release(theirs), DLOCK_E_NOT_OWNER);
}

TEST_F(ZkClient, ANonReentrantLockIsCuratorsSemaphoreMutexAndRefusesItsHolder) {
  dlock_client* a = open();
  dlock_client* b = open();
  const std::string path = "/app/locks/once";
  dlock_lock* mine = nonreentrant_lock(a, path);
  dlock_lock* theirs = nonreentrant_lock(b, path);
  uint64_t first = 0;
  ASSERT_EQ(dlock_lock_acquire(mine, 0, -1, &first), DLOCK_OK) << dlock_last_error();
  // One lease, as Curator's InterProcessSemaphoreMutex names it; its czxid is the token.
  const std::vector<std::string> leases = children(path + "/leases");
  ASSERT_EQ(leases.size(), 1u);
  EXPECT_EQ(leases[0].rfind("_c_", 0), 0u) << leases[0];
  EXPECT_NE(leases[0].find("-lease-"), std::string::npos) << leases[0];
  const dlock::zk::StatResult lease = dlock::zk::exists(observer(), path + "/leases/" + leases[0]);
  ASSERT_EQ(lease.rc, ZOK);
  EXPECT_EQ(static_cast<uint64_t>(lease.stat.czxid), first);
  // The holder is not let in again: at once, or after its wait.
  EXPECT_EQ(dlock_lock_acquire(mine, 0, -1, nullptr), DLOCK_NOT_ACQUIRED);
  const auto started = Clock::now();
  EXPECT_EQ(dlock_lock_acquire(mine, 300, -1, nullptr), DLOCK_NOT_ACQUIRED);
  EXPECT_GE(Clock::now() - started, milliseconds(290));
  int count = -1;
  ASSERT_EQ(dlock_lock_hold_count(mine, &count), DLOCK_OK);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(children(path + "/leases").size(), 1u);
  // A fixed lease is refused, naming lease_ms and the backend.
  EXPECT_EQ(dlock_lock_acquire(theirs, 0, 1000, nullptr), DLOCK_E_INVALID);
  EXPECT_NE(std::string(dlock_last_error()).find("zookeeper"), std::string::npos) << dlock_last_error();
  // Another client waits, and is granted by the release with a larger token.
  auto waiting = std::async(std::launch::async, [&] {
    uint64_t token = 0;
    const int status = dlock_lock_acquire(theirs, 10000, -1, &token);
    const int released = status == DLOCK_OK ? dlock_lock_release(theirs) : DLOCK_OK;
    const int again = dlock_lock_release(theirs);
    return std::make_tuple(status, token, released, again);
  });
  EXPECT_EQ(waiting.wait_for(milliseconds(300)), std::future_status::timeout) << "granted while held";
  ASSERT_EQ(dlock_lock_release(mine), DLOCK_OK) << dlock_last_error();
  const auto [status, next, released, again] = waiting.get();
  ASSERT_EQ(status, DLOCK_OK);
  EXPECT_GT(next, first);
  EXPECT_EQ(released, DLOCK_OK);
  EXPECT_EQ(again, DLOCK_E_NOT_OWNER);
  EXPECT_TRUE(eventually([&] { return children(path + "/leases").empty(); }));
}

// The holder's own waiting acquire (another thread, the same owner id) is
// granted once the hold is released, as threading.Lock's is.
TEST_F(ZkClient, ANonReentrantHoldersWaitingAcquireIsGrantedByItsRelease) {
  dlock_client* client = open();
  dlock_lock* handle = nonreentrant_lock(client, "/app/locks/handed");
  constexpr uint64_t owner = 7;
  uint64_t first = 0;
  ASSERT_EQ(dlock_lock_acquire_owner(handle, owner, 0, -1, nullptr, &first), DLOCK_OK) << dlock_last_error();
  auto again = std::async(std::launch::async, [&] {
    uint64_t token = 0;
    const int status = dlock_lock_acquire_owner(handle, owner, 10000, -1, nullptr, &token);
    return std::make_pair(status, token);
  });
  EXPECT_EQ(again.wait_for(milliseconds(300)), std::future_status::timeout) << "the holder was let in again";
  ASSERT_EQ(dlock_lock_release_owner(handle, owner), DLOCK_OK) << dlock_last_error();
  ASSERT_EQ(again.wait_for(milliseconds(5000)), std::future_status::ready) << "the release did not wake it";
  const auto [status, token] = again.get();
  ASSERT_EQ(status, DLOCK_OK) << dlock_last_error();
  EXPECT_GT(token, first);
  EXPECT_EQ(dlock_lock_release_owner(handle, owner), DLOCK_OK) << dlock_last_error();
}

TEST_F(ZkClient, AnOtherNameMapsUnderDlock) {
  dlock_client* client = open();
  dlock_lock* handle = lock(client, "orders/42");
  ASSERT_EQ(dlock_lock_acquire(handle, 0, -1, nullptr), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(children("/dlock/orders%2F42").size(), 1u);
  EXPECT_EQ(dlock_lock_release(handle), DLOCK_OK);
}

TEST_F(ZkClient, AWaiterIsGrantedWhenTheHolderReleases) {
  dlock_client* a = open();
  dlock_client* b = open();
  dlock_lock* holder = lock(a, "handoff");
  dlock_lock* waiter = lock(b, "handoff");
  uint64_t held = 0;
  ASSERT_EQ(dlock_lock_acquire(holder, 0, -1, &held), DLOCK_OK);
  std::atomic<int> status{1000};
  std::atomic<uint64_t> token{0};
  std::atomic<int64_t> granted_ns{0};
  std::thread waiting([&] {
    uint64_t got = 0;
    const int result = dlock_lock_acquire(waiter, 10000, -1, &got);
    granted_ns = Clock::now().time_since_epoch().count();
    token = got;
    status = result;
    if (result == DLOCK_OK) dlock_lock_release(waiter);
  });
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(status.load(), 1000) << "granted while held";
  const auto released_at = Clock::now();
  ASSERT_EQ(dlock_lock_release(holder), DLOCK_OK);
  waiting.join();
  ASSERT_EQ(status.load(), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(token.load(), held);
  // Woken by its watch, not by a timer: well within a second.
  EXPECT_LT(Clock::time_point(Clock::duration(granted_ns.load())) - released_at, milliseconds(1000));
}

TEST_F(ZkClient, AFixedLeaseIsRefusedNamingLeaseMs) {
  dlock_client* client = open();
  dlock_lock* handle = lock(client, "fixed");
  EXPECT_EQ(dlock_lock_acquire(handle, 0, 5000, nullptr), DLOCK_E_INVALID);
  EXPECT_NE(std::string(dlock_last_error()).find("lease_ms"), std::string::npos) << dlock_last_error();
  EXPECT_NE(std::string(dlock_last_error()).find("zookeeper"), std::string::npos) << dlock_last_error();
  EXPECT_TRUE(children("/dlock/fixed").empty());
}

TEST_F(ZkClient, APrimitiveItDoesNotServeSaysSoNamingTheBackend) {
  dlock_client* client = open();
  dlock_semaphore* semaphore = nullptr;
  ASSERT_EQ(dlock_semaphore_new(client, "slots", &semaphore), DLOCK_OK);
  EXPECT_EQ(dlock_semaphore_acquire(semaphore, 1, 0, nullptr), DLOCK_E_UNSUPPORTED);
  EXPECT_NE(std::string(dlock_last_error()).find("zookeeper"), std::string::npos) << dlock_last_error();
  dlock_semaphore_free(semaphore);
}

// dlock_permit_semaphore_* is Curator's InterProcessSemaphoreV2: permits set
// once where every client reads them, one lease node per permit, never more
// leases than permits.
TEST_F(ZkClient, APermitSemaphoreIsCuratorsSemaphoreV2) {
  dlock_client* a = open();
  dlock_client* b = open();
  const std::string path = "/app/semaphores/slots";
  dlock_permit_semaphore* mine = nullptr;
  dlock_permit_semaphore* theirs = nullptr;
  ASSERT_EQ(dlock_permit_semaphore_new(a, path.c_str(), &mine), DLOCK_OK) << dlock_last_error();
  ASSERT_EQ(dlock_permit_semaphore_new(b, path.c_str(), &theirs), DLOCK_OK) << dlock_last_error();
  char first[DLOCK_PERMIT_ID_SIZE];
  char second[DLOCK_PERMIT_ID_SIZE];
  // No permits set yet: refused, naming what sets them.
  EXPECT_EQ(dlock_permit_semaphore_acquire(mine, 0, -1, nullptr, first, sizeof first), DLOCK_E_INVALID);
  EXPECT_NE(std::string(dlock_last_error()).find("try_set_permits"), std::string::npos) << dlock_last_error();
  int set = -1;
  ASSERT_EQ(dlock_permit_semaphore_try_set_permits(mine, 2, &set), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(set, 1);
  ASSERT_EQ(dlock_permit_semaphore_try_set_permits(theirs, 5, &set), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(set, 0) << "set twice";
  // Stored as Curator's SharedCount stores an int.
  EXPECT_EQ(dlock::zk::get(observer(), path + "/permits").data, std::string("\0\0\0\2", 4));
  int64_t available = -1;
  ASSERT_EQ(dlock_permit_semaphore_available_permits(theirs, &available), DLOCK_OK);
  EXPECT_EQ(available, 2);
  ASSERT_EQ(dlock_permit_semaphore_acquire(mine, 0, -1, nullptr, first, sizeof first), DLOCK_OK)
      << dlock_last_error();
  ASSERT_EQ(dlock_permit_semaphore_acquire(theirs, 0, -1, nullptr, second, sizeof second), DLOCK_OK)
      << dlock_last_error();
  EXPECT_STRNE(first, second);
  EXPECT_EQ(children(path + "/leases").size(), 2u);
  ASSERT_EQ(dlock_permit_semaphore_available_permits(mine, &available), DLOCK_OK);
  EXPECT_EQ(available, 0);
  char third[DLOCK_PERMIT_ID_SIZE];
  EXPECT_EQ(dlock_permit_semaphore_acquire(theirs, 0, -1, nullptr, third, sizeof third), DLOCK_NOT_ACQUIRED);
  EXPECT_TRUE(eventually([&] { return children(path + "/leases").size() == 2; }));
  // A fixed lease is refused, naming lease_ms and the backend.
  EXPECT_EQ(dlock_permit_semaphore_acquire(theirs, 0, 1000, nullptr, third, sizeof third), DLOCK_E_INVALID);
  EXPECT_NE(std::string(dlock_last_error()).find("lease_ms"), std::string::npos) << dlock_last_error();
  EXPECT_NE(std::string(dlock_last_error()).find("zookeeper"), std::string::npos) << dlock_last_error();
  // Another client's permit is not this one's to release.
  EXPECT_EQ(dlock_permit_semaphore_release(theirs, first), DLOCK_E_NOT_OWNER);
  EXPECT_NE(std::string(dlock_last_error()).find(first), std::string::npos) << dlock_last_error();
  // A waiter is granted by a release.
  auto waiting = std::async(std::launch::async, [&] {
    return dlock_permit_semaphore_acquire(theirs, 10000, -1, nullptr, third, sizeof third);
  });
  EXPECT_EQ(waiting.wait_for(milliseconds(300)), std::future_status::timeout) << "granted a third lease";
  ASSERT_EQ(dlock_permit_semaphore_release(mine, first), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(waiting.get(), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_permit_semaphore_release(mine, first), DLOCK_E_NOT_OWNER);
  EXPECT_EQ(dlock_permit_semaphore_release(theirs, second), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_permit_semaphore_release(theirs, third), DLOCK_OK) << dlock_last_error();
  EXPECT_TRUE(eventually([&] { return children(path + "/leases").empty(); }));
  ASSERT_EQ(dlock_permit_semaphore_available_permits(mine, &available), DLOCK_OK);
  EXPECT_EQ(available, 2);
  dlock_permit_semaphore_free(mine);
  dlock_permit_semaphore_free(theirs);
}

// The session keeps a permit; its lease node deleted by hand is told through
// the lost callback with the permit's id, and its release says it was lost.
TEST_F(ZkClient, APermitWhoseLeaseIsDeletedIsReportedLost) {
  dlock_client* client = open("?session_timeout_ms=1500");
  const std::string path = "/app/semaphores/lost";
  dlock_permit_semaphore* semaphore = nullptr;
  ASSERT_EQ(dlock_permit_semaphore_new(client, path.c_str(), &semaphore), DLOCK_OK) << dlock_last_error();
  struct Lost {
    std::mutex mutex;
    std::vector<std::string> ids;
  } lost;
  ASSERT_EQ(dlock_permit_semaphore_set_lost_callback(
                semaphore,
                [](const char*, const char* permit_id, void* ctx) {
                  auto* seen = static_cast<Lost*>(ctx);
                  std::lock_guard<std::mutex> guard(seen->mutex);
                  seen->ids.emplace_back(permit_id);
                },
                &lost),
            DLOCK_OK);
  int set = 0;
  ASSERT_EQ(dlock_permit_semaphore_try_set_permits(semaphore, 1, &set), DLOCK_OK) << dlock_last_error();
  char id[DLOCK_PERMIT_ID_SIZE];
  ASSERT_EQ(dlock_permit_semaphore_acquire(semaphore, 0, -1, nullptr, id, sizeof id), DLOCK_OK)
      << dlock_last_error();
  const std::vector<std::string> leases = children(path + "/leases");
  ASSERT_EQ(leases.size(), 1u);
  ASSERT_EQ(dlock::zk::remove(observer(), path + "/leases/" + leases[0]), ZOK);
  EXPECT_TRUE(dlock_test::wait_until(
      [&] {
        std::lock_guard<std::mutex> guard(lost.mutex);
        return !lost.ids.empty();
      },
      milliseconds(5000)));
  {
    std::lock_guard<std::mutex> guard(lost.mutex);
    ASSERT_EQ(lost.ids.size(), 1u);
    EXPECT_EQ(lost.ids[0], id);
  }
  EXPECT_EQ(dlock_permit_semaphore_release(semaphore, id), DLOCK_E_LOST);
  dlock_permit_semaphore_free(semaphore);
}

TEST_F(ZkClient, ANodeDeletedBehindTheHoldersBackIsReportedLost) {
  dlock_client* client = open("?session_timeout_ms=1500");
  dlock_lock* handle = lock(client, "/lost/here");
  dlock_test::LostRecorder lost;
  ASSERT_EQ(lost.attach(handle), DLOCK_OK);
  uint64_t token = 0;
  ASSERT_EQ(dlock_lock_acquire(handle, 0, -1, &token), DLOCK_OK) << dlock_last_error();
  const std::vector<std::string> nodes = children("/lost/here");
  ASSERT_EQ(nodes.size(), 1u);
  ASSERT_EQ(dlock::zk::remove(observer(), "/lost/here/" + nodes[0]), ZOK);
  // The keeper checks every renewal period (a third of two thirds of the
  // session timeout): told well within the session timeout.
  const auto deadline = Clock::now() + milliseconds(5000);
  while (lost.calls() == 0 && Clock::now() < deadline) std::this_thread::sleep_for(milliseconds(20));
  EXPECT_EQ(lost.calls(), 1);
  EXPECT_EQ(lost.last_token(), token);
  EXPECT_EQ(dlock_lock_release(handle), DLOCK_E_LOST);
}

// dlock_lock_inspect on ZooKeeper: the holders are the nodes that hold (with
// the owner field their data carries), the waiters are not; no lease (-1);
// the token is the holder's grant's. Both readers of a read-write lock hold.
TEST_F(ZkClient, InspectionShowsTheHoldersAndTheirGrantsToken) {
  dlock_client* holder_client = open();
  dlock_lock* held = lock(holder_client, "/jobs/inspected");
  dlock_lock* observed = lock(open(), "/jobs/inspected");
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  ASSERT_EQ(dlock_lock_inspect(observed, &info, nullptr), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(info.ttl_ms, -2);
  EXPECT_EQ(info.holder_count, 0u);
  EXPECT_EQ(info.has_last_token, 0);

  uint64_t token = 0;
  ASSERT_EQ(dlock_lock_acquire_owner(held, 7, -1, -1, nullptr, &token), DLOCK_OK) << dlock_last_error();
  auto waiter = dlock_test::acquire_in_background(lock(open(), "/jobs/inspected"), 8, 10000, -1);
  ASSERT_TRUE(eventually([&] { return children("/jobs/inspected").size() == 2; }));
  dlock_lock_holders* holders = nullptr;
  ASSERT_EQ(dlock_lock_inspect(observed, &info, &holders), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(info.ttl_ms, -1);
  ASSERT_EQ(info.holder_count, 1u) << "the waiter is not a holder";
  EXPECT_EQ(info.has_last_token, 1);
  EXPECT_EQ(info.last_token, token);
  const char* id = nullptr;
  int64_t count = 0;
  ASSERT_EQ(dlock_lock_holders_get(holders, 0, &id, nullptr, &count), DLOCK_OK);
  const std::string holder_id(id);
  EXPECT_EQ(holder_id.substr(holder_id.size() - 2), ":7") << holder_id;
  EXPECT_EQ(count, 1);
  dlock_lock_holders_free(holders);
  ASSERT_EQ(dlock_lock_release_owner(held, 7), DLOCK_OK);
  EXPECT_EQ(waiter.get().status, DLOCK_OK);

  dlock_lock* first_reader = nullptr;
  dlock_lock* second_reader = nullptr;
  ASSERT_EQ(dlock_rwlock_read_lock(holder_client, "shared", &first_reader), DLOCK_OK);
  ASSERT_EQ(dlock_rwlock_read_lock(open(), "shared", &second_reader), DLOCK_OK);
  locks_.push_back(first_reader);
  locks_.push_back(second_reader);
  ASSERT_EQ(dlock_lock_acquire(first_reader, -1, -1, nullptr), DLOCK_OK);
  ASSERT_EQ(dlock_lock_acquire(second_reader, -1, -1, nullptr), DLOCK_OK);
  ASSERT_EQ(dlock_lock_inspect(first_reader, &info, nullptr), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(info.holder_count, 2u);
  EXPECT_EQ(dlock_lock_release(first_reader), DLOCK_OK);
  EXPECT_EQ(dlock_lock_release(second_reader), DLOCK_OK);
}

// A holder's note on ZooKeeper is in its node's data after its id: inspection
// still shows the id, the note reads back, a non-holder writes none, and the
// note goes with the node.
TEST_F(ZkClient, AHoldersNoteIsKeptInItsNodeBesideItsId) {
  dlock_lock* held = lock(open(), "/jobs/noted");
  dlock_lock* observed = lock(open(), "/jobs/noted");
  char* holder_id = nullptr;
  char* note = nullptr;
  ASSERT_EQ(dlock_lock_read_holder_note(observed, &holder_id, &note), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(note, nullptr);
  ASSERT_EQ(dlock_lock_acquire_owner(held, 7, -1, -1, nullptr, nullptr), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_lock_note_holder(held, 8, "host=web2 pid=2"), DLOCK_E_NOT_OWNER);
  ASSERT_EQ(dlock_lock_note_holder(held, 7, "host=web1 pid=4242"), DLOCK_OK) << dlock_last_error();

  dlock_lock_info info;
  dlock_lock_info_init(&info);
  dlock_lock_holders* holders = nullptr;
  ASSERT_EQ(dlock_lock_inspect(observed, &info, &holders), DLOCK_OK) << dlock_last_error();
  ASSERT_EQ(info.holder_count, 1u);
  const char* id = nullptr;
  ASSERT_EQ(dlock_lock_holders_get(holders, 0, &id, nullptr, nullptr), DLOCK_OK);
  const std::string inspected(id);
  dlock_lock_holders_free(holders);
  EXPECT_EQ(inspected.substr(inspected.size() - 2), ":7") << inspected;
  ASSERT_EQ(dlock_lock_read_holder_note(observed, &holder_id, &note), DLOCK_OK) << dlock_last_error();
  ASSERT_NE(note, nullptr);
  EXPECT_EQ(std::string(holder_id), inspected);
  EXPECT_STREQ(note, "host=web1 pid=4242");
  dlock_lock_holder_note_free(holder_id);
  dlock_lock_holder_note_free(note);

  ASSERT_EQ(dlock_lock_release_owner(held, 7), DLOCK_OK);
  ASSERT_EQ(dlock_lock_read_holder_note(observed, &holder_id, &note), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(note, nullptr) << "the note went with the node";
}

// dlock_lock_list on ZooKeeper: the names under /dlock with a node now (held
// or awaited), unescaped, under the prefix; a released lock's empty path is
// not listed.
TEST_F(ZkClient, ListingNamesTheLocksHeldUnderThePrefix) {
  dlock_client* client = open();
  const std::vector<std::string> names = {"listed/a", "listed b", "other"};
  std::vector<dlock_lock*> handles;
  for (const std::string& name : names) {
    handles.push_back(lock(client, name));
    ASSERT_EQ(dlock_lock_acquire(handles.back(), -1, -1, nullptr), DLOCK_OK) << dlock_last_error();
  }
  const auto listed = [&](const char* prefix) {
    std::vector<std::string> found;
    EXPECT_EQ(dlock_lock_list(
                  client, prefix,
                  [](const char* name, size_t length, void* out) {
                    static_cast<std::vector<std::string>*>(out)->emplace_back(name, length);
                    return 0;
                  },
                  &found),
              DLOCK_OK)
        << dlock_last_error();
    std::sort(found.begin(), found.end());
    return found;
  };
  EXPECT_EQ(listed("listed"), (std::vector<std::string>{"listed b", "listed/a"}));
  ASSERT_EQ(dlock_lock_release(handles[1]), DLOCK_OK);
  EXPECT_EQ(listed("listed"), (std::vector<std::string>{"listed/a"}));
  EXPECT_EQ(listed(""), (std::vector<std::string>{"listed/a", "other"}));
  EXPECT_EQ(dlock_lock_release(handles[0]), DLOCK_OK);
  EXPECT_EQ(dlock_lock_release(handles[2]), DLOCK_OK);
}

TEST_F(ZkClient, AClosedPortIsAConnectionError) {
  dlock_client* client = nullptr;
  const std::string closed =
      "zookeeper://127.0.0.1:" + std::to_string(dlock_test::pick_free_port()) + "?connect_timeout_ms=1000";
  const auto start = Clock::now();
  EXPECT_EQ(dlock_client_open(closed.c_str(), nullptr, &client), DLOCK_E_CONNECTION);
  EXPECT_EQ(client, nullptr);
  EXPECT_LT(Clock::now() - start, milliseconds(5000));
}

TEST_F(ZkClient, AChrootThatDoesNotExistIsInvalid) {
  dlock_client* client = nullptr;
  EXPECT_EQ(dlock_client_open(url("/no/such/chroot").c_str(), nullptr, &client), DLOCK_E_INVALID);
  EXPECT_NE(std::string(dlock_last_error()).find("/no/such/chroot"), std::string::npos) << dlock_last_error();
  EXPECT_EQ(client, nullptr);
}

// A lock path under a node only its creator may write (ZooKeeper's "auth"
// ACL): a client without the creator's credentials, or with a wrong password,
// is refused with DLOCK_E_AUTH naming the path (and not the password), and
// leaves no node; the creator's credentials in the URL are granted the lock.
TEST_F(ZkClient, APathTheClientMayNotWriteIsAnAuthErrorNamingIt) {
  dlock::zk::SessionOptions options;
  options.hosts = hosts();
  options.digest_credentials = "carol:Pa55-right";
  dlock::zk::ZkSession carol(options);
  char created[64];
  ASSERT_EQ(zoo_create(carol.handle(), "/owned", "", 0, &ZOO_CREATOR_ALL_ACL, 0, created, sizeof created), ZOK);
  for (const std::string& refused : {std::string(), std::string("?auth=digest:carol:wrong-Pa55")}) {
    dlock_lock* handle = lock(open(refused), "/owned/orders");
    const auto start = Clock::now();
    EXPECT_EQ(dlock_lock_acquire(handle, 10000, -1, nullptr), DLOCK_E_AUTH) << "with '" << refused << "'";
    EXPECT_LT(Clock::now() - start, milliseconds(5000)) << "a refusal is not waited out";
    const std::string error = dlock_last_error();
    EXPECT_NE(error.find("/owned/orders"), std::string::npos) << error;
    EXPECT_EQ(error.find("wrong-Pa55"), std::string::npos) << "a password in: " << error;
    EXPECT_TRUE(dlock::zk::get_children(carol, "/owned").children.empty());
  }
  dlock_lock* handle = lock(open("?auth=digest:carol:Pa55-right"), "/owned/orders");
  ASSERT_EQ(dlock_lock_acquire(handle, 2000, -1, nullptr), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_lock_release(handle), DLOCK_OK);
}

TEST_F(ZkClient, BadUrlsNameWhatIsWrong) {
  dlock_client* client = nullptr;
  EXPECT_EQ(dlock_client_open("zookeeper://", nullptr, &client), DLOCK_E_INVALID);
  EXPECT_NE(std::string(dlock_last_error()).find("host"), std::string::npos) << dlock_last_error();
  EXPECT_EQ(dlock_client_open(url("?color=blue").c_str(), nullptr, &client), DLOCK_E_INVALID);
  EXPECT_NE(std::string(dlock_last_error()).find("color"), std::string::npos) << dlock_last_error();
  EXPECT_EQ(dlock_client_open(url("?session_timeout_ms=x").c_str(), nullptr, &client), DLOCK_E_INVALID);
  EXPECT_NE(std::string(dlock_last_error()).find("session_timeout_ms"), std::string::npos)
      << dlock_last_error();
  EXPECT_EQ(client, nullptr);
}

// A holder process killed with SIGKILL: its node goes with its session, which
// the server ends a session timeout after it last heard from it; the waiter,
// woken by its watch, is granted then, with a larger token.
TEST_F(ZkClient, AKilledHoldersNodeGoesWithItsSessionAndTheWaiterGetsTheLock) {
  constexpr int64_t session_ms = 1500;
  const std::string session = "?session_timeout_ms=" + std::to_string(session_ms);
  dlock_test::TempDir dir;
  const auto holder = dlock_test::start_hold_worker(
      {url(session), "/faults/killed", dir.file("store"), "", "", 60000, {}}, dir.file("holder.out"));
  const uint64_t holder_token = dlock_test::wait_until_acquired(dir.file("holder.out"));
  dlock_lock* waiting = lock(open(session), "/faults/killed");
  auto waiter = dlock_test::acquire_in_background(waiting, 2, -1, -1);
  std::this_thread::sleep_for(milliseconds(500));
  ASSERT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout) << "granted while held";
  const int64_t killed_ns = dlock_test::monotonic_ns();
  holder->kill_and_reap();
  ASSERT_EQ(waiter.wait_for(milliseconds(session_ms + 5000)), std::future_status::ready);
  const dlock_test::AcquireOutcome outcome = waiter.get();
  ASSERT_EQ(outcome.status, DLOCK_OK) << dlock_last_error();
  EXPECT_GT(outcome.token, holder_token);
  // Not before the server could end the dead session (its own clock, a tick's slack).
  EXPECT_GE((outcome.returned_ns - killed_ns) / 1000000, session_ms - 500);
}

// A holder stopped (SIGSTOP) past its session timeout: another client is
// granted with a larger token; resumed, the holder's write is refused by the
// fenced store, its release is DLOCK_E_LOST and its callback told it once.
TEST_F(ZkClient, AHolderPausedPastItsSessionIsToldAndFencedOff) {
  constexpr int64_t session_ms = 1500;
  const std::string session = "?session_timeout_ms=" + std::to_string(session_ms);
  dlock_test::TempDir dir;
  const auto holder = dlock_test::start_hold_worker(
      {url(session), "/faults/paused", dir.file("store"), "", "", 300, {}}, dir.file("holder.out"));
  const uint64_t paused_token = dlock_test::wait_until_acquired(dir.file("holder.out"));
  holder->signal(SIGSTOP);
  const int64_t stopped_ms = dlock_test::monotonic_ms();

  dlock_lock* next = lock(open(session), "/faults/paused");
  const dlock_test::FencedStore store(dir.file("store"));
  uint64_t token = 0;
  ASSERT_EQ(dlock_lock_acquire(next, 4 * session_ms, -1, &token), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(token, paused_token);
  EXPECT_TRUE(store.write(token, store.read() + 1));

  std::this_thread::sleep_for(
      milliseconds(std::max<int64_t>(0, stopped_ms + 2 * session_ms - dlock_test::monotonic_ms())));
  holder->signal(SIGCONT);
  const auto report = [&](const std::string& key) {
    return dlock_test::wait_for_output(dir.file("holder.out"), key, milliseconds(10000))
        .value_or("<nothing>");
  };
  EXPECT_EQ(report("write"), "stale") << "the store accepted the paused holder's stale token";
  EXPECT_EQ(report("release"), std::to_string(DLOCK_E_LOST));
  EXPECT_EQ(report("lost_callbacks"), "1");
  EXPECT_EQ(dlock_lock_release(next), DLOCK_OK);
}

// A session the server expires while the client is cut off (longer than the
// session timeout): the hold is told lost (callback once, release
// DLOCK_E_LOST), its node is gone, and the same client, healed, runs on a new
// session: it takes the lock again with a larger token and excludes another
// client; the log and the stats record the expiry and the new session.
TEST_F(ZkClient, AnExpiredSessionIsReplacedAndTheClientLocksAgain) {
  constexpr int64_t session_ms = 1500;
  const std::string session = "?session_timeout_ms=" + std::to_string(session_ms);
  const std::string path = "/expiry/held";
  dlock_test::LogCapture log(DLOCK_LOG_INFO);
  dlock_test::TcpProxy proxy(server_->client_port(0));
  dlock_client* client = open_through(proxy, session);
  dlock_lock* handle = lock(client, path);
  dlock_lock* others = lock(open(session), path);
  dlock_test::LostRecorder lost;
  ASSERT_EQ(lost.attach(handle), DLOCK_OK);
  uint64_t first_token = 0;
  ASSERT_EQ(dlock_lock_acquire(handle, 0, -1, &first_token), DLOCK_OK) << dlock_last_error();
  const std::vector<std::string> first_nodes = children(path);
  ASSERT_EQ(first_nodes.size(), 1u);
  const dlock::zk::StatResult first_node = dlock::zk::exists(observer(), path + "/" + first_nodes[0]);
  ASSERT_EQ(first_node.rc, ZOK);

  proxy.partition();
  // The server ends the session a session timeout after it last heard from
  // it, and its node with it.
  EXPECT_TRUE(dlock_test::wait_until([&] { return children(path).empty(); }, milliseconds(4 * session_ms + 5000)));
  EXPECT_TRUE(dlock_test::wait_until([&] { return lost.calls() == 1; }, milliseconds(5000)));
  uint64_t excluded_token = 0;
  ASSERT_EQ(dlock_lock_acquire(others, 0, -1, &excluded_token), DLOCK_OK) << "the old session's node is gone";
  ASSERT_EQ(dlock_lock_release(others), DLOCK_OK);
  proxy.heal();

  EXPECT_EQ(dlock_lock_release(handle), DLOCK_E_LOST);
  EXPECT_EQ(lost.calls(), 1);
  uint64_t second_token = 0;
  ASSERT_EQ(dlock_lock_acquire(handle, 20000, -1, &second_token), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(second_token, first_token);
  EXPECT_GT(second_token, excluded_token);
  const std::vector<std::string> second_nodes = children(path);
  ASSERT_EQ(second_nodes.size(), 1u);
  const dlock::zk::StatResult second_node = dlock::zk::exists(observer(), path + "/" + second_nodes[0]);
  ASSERT_EQ(second_node.rc, ZOK);
  EXPECT_NE(second_node.stat.ephemeralOwner, first_node.stat.ephemeralOwner) << "a new session holds it";
  EXPECT_EQ(static_cast<uint64_t>(second_node.stat.czxid), second_token);
  EXPECT_EQ(dlock_lock_acquire(others, 0, -1, nullptr), DLOCK_NOT_ACQUIRED) << "held by two clients";

  EXPECT_TRUE(log.has(DLOCK_LOG_WARN, {"ZooKeeper session", "expired"})) << log.dump();
  EXPECT_TRUE(log.has(DLOCK_LOG_INFO, {"opened ZooKeeper session", "in place of"})) << log.dump();
  dlock_client_stats stats{};
  stats.size = sizeof stats;
  ASSERT_EQ(dlock_client_stats_get(client, &stats), DLOCK_OK);
  EXPECT_GE(stats.reconnects, 1u);
  EXPECT_EQ(stats.locks_lost, 1u);

  ASSERT_EQ(dlock_lock_release(handle), DLOCK_OK);
  uint64_t third_token = 0;
  ASSERT_EQ(dlock_lock_acquire(others, 5000, -1, &third_token), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(third_token, second_token);
}

// A waiter cut off from the ensemble for the session timeout is told so
// (DLOCK_E_CONNECTION: it cannot know whether its place in line lives), never
// granted beside the holder; healed, its client waits on a new session and is
// granted after the holder's release.
TEST_F(ZkClient, AWaiterCutOffPastItsSessionIsToldAndItsClientWaitsAgain) {
  constexpr int64_t session_ms = 1500;
  const std::string session = "?session_timeout_ms=" + std::to_string(session_ms);
  const std::string path = "/expiry/waited";
  dlock_test::TcpProxy proxy(server_->client_port(0));
  dlock_lock* held = lock(open(session), path);
  uint64_t held_token = 0;
  ASSERT_EQ(dlock_lock_acquire(held, 0, -1, &held_token), DLOCK_OK) << dlock_last_error();
  dlock_lock* waiting = lock(open_through(proxy, session), path);
  auto waiter = dlock_test::acquire_in_background(waiting, 2, -1, -1);
  ASSERT_TRUE(dlock_test::wait_until([&] { return children(path).size() == 2; }, milliseconds(5000)));

  proxy.partition();
  ASSERT_EQ(waiter.wait_for(milliseconds(4 * session_ms + 15000)), std::future_status::ready);
  EXPECT_EQ(waiter.get().status, DLOCK_E_CONNECTION);
  EXPECT_TRUE(dlock_test::wait_until([&] { return children(path).size() == 1; }, milliseconds(4 * session_ms + 5000)))
      << "the waiter's node went with its session";
  proxy.heal();

  auto again = dlock_test::acquire_in_background(waiting, 2, 30000, -1);
  EXPECT_EQ(again.wait_for(milliseconds(2 * session_ms)), std::future_status::timeout) << "granted while held";
  ASSERT_EQ(dlock_lock_release(held), DLOCK_OK);
  ASSERT_EQ(again.wait_for(milliseconds(30000)), std::future_status::ready);
  const dlock_test::AcquireOutcome outcome = again.get();
  ASSERT_EQ(outcome.status, DLOCK_OK) << dlock_last_error();
  EXPECT_GT(outcome.token, held_token);
}

// A thousand waiters on one lock, each an asynchronous acquire of the same
// client (no thread each): they queue in the order they came, each release
// grants the next, and the tokens only grow.
TEST_F(ZkClient, AThousandWaitersAreGrantedInTheOrderTheyCame) {
  constexpr int waiters = 1000;
  dlock_client* client = open();
  dlock_lock* handle = lock(client, "/crowd/lock");
  ASSERT_EQ(dlock_lock_acquire_owner(handle, 0, 0, -1, nullptr, nullptr), DLOCK_OK) << dlock_last_error();

  struct Grants {
    dlock_lock* lock;
    std::mutex mutex;
    std::vector<std::pair<uint64_t, uint64_t>> order;  // (owner, token)
    std::vector<int> failures;
    std::atomic<int> done{0};
  } grants{handle, {}, {}, {}, {}};
  struct Waiter {
    Grants* grants;
    uint64_t owner;
  };
  std::vector<Waiter> contexts;
  contexts.reserve(waiters);
  for (int i = 1; i <= waiters; ++i) contexts.push_back({&grants, static_cast<uint64_t>(i)});
  const dlock_done_fn granted = [](int status, uint64_t token, const char*, void* ctx) {
    auto* waiter = static_cast<Waiter*>(ctx);
    {
      std::lock_guard<std::mutex> lock(waiter->grants->mutex);
      if (status == DLOCK_OK) {
        waiter->grants->order.emplace_back(waiter->owner, token);
      } else {
        waiter->grants->failures.push_back(status);
      }
    }
    // Passes the lock on without waiting here (a callback must not block).
    const dlock_done_fn released = [](int status, uint64_t, const char*, void* ctx) {
      auto* waiter = static_cast<Waiter*>(ctx);
      if (status != DLOCK_OK) {
        std::lock_guard<std::mutex> lock(waiter->grants->mutex);
        waiter->grants->failures.push_back(status);
      }
      ++waiter->grants->done;
    };
    if (status != DLOCK_OK ||
        dlock_lock_release_async(waiter->grants->lock, waiter->owner, released, waiter) != DLOCK_OK) {
      ++waiter->grants->done;
    }
  };
  for (Waiter& waiter : contexts) {
    ASSERT_EQ(dlock_lock_acquire_async(handle, waiter.owner, 120000, -1, nullptr, granted, &waiter),
              DLOCK_OK);
  }
  // Every waiter's node is queued before the holder lets go.
  ASSERT_TRUE(dlock_test::wait_until([&] { return children("/crowd/lock").size() == waiters + 1; },
                                     milliseconds(60000)));
  ASSERT_EQ(dlock_lock_release_owner(handle, 0), DLOCK_OK);
  ASSERT_TRUE(dlock_test::wait_until([&] { return grants.done.load() == waiters; }, milliseconds(110000)))
      << grants.done.load() << " of " << waiters << " were told";
  std::lock_guard<std::mutex> lock(grants.mutex);
  EXPECT_TRUE(grants.failures.empty()) << grants.failures.size() << " waits failed";
  ASSERT_EQ(grants.order.size(), static_cast<std::size_t>(waiters));
  for (std::size_t i = 0; i < grants.order.size(); ++i) {
    EXPECT_EQ(grants.order[i].first, i + 1) << "grant " << i << " went out of turn";
    if (i > 0) EXPECT_GT(grants.order[i].second, grants.order[i - 1].second) << "token " << i;
  }
  EXPECT_TRUE(eventually([&] { return children("/crowd/lock").empty(); }));
}
// A client opened before fork() works in the child on a session of its own,
// and leaves the parent's session, and so its lock, alone (closing the
// inherited session would have deleted the parent's node).
TEST_F(ZkClient, AForkedChildUsesTheClientOnItsOwnSession) {
#ifdef __SANITIZE_THREAD__
  GTEST_SKIP() << "TSan cannot follow threads started in a child of a multithreaded fork";
#endif
  dlock_client* client = open();
  dlock_lock* parents = lock(client, "/fork/parent");
  ASSERT_EQ(dlock_lock_acquire(parents, 0, -1, nullptr), DLOCK_OK) << dlock_last_error();
  const std::vector<std::string> before = children("/fork/parent");
  ASSERT_EQ(before.size(), 1u);

  EXPECT_EQ(dlock_test::run_forked_child_checks(client, parents, "/fork/child"), "");
  EXPECT_EQ(children("/fork/parent"), before) << "the child touched the parent's node";
  EXPECT_TRUE(eventually([&] { return children("/fork/child").empty(); }));
  EXPECT_EQ(dlock_lock_release(parents), DLOCK_OK) << dlock_last_error();
  EXPECT_TRUE(children("/fork/parent").empty());
}

// A MultiLock over a lock on ZooKeeper and one on Redis: all or none, across
// backends; a member held elsewhere keeps the whole group waiting, and its
// release lets the group in.
TEST_F(ZkClient, AMultiLockSpansZooKeeperAndRedis) {
  dlock_test::RedisServer redis;
  dlock_client* zk = open();
  dlock_client* on_redis = nullptr;
  ASSERT_EQ(dlock_client_open(redis.url().c_str(), nullptr, &on_redis), DLOCK_OK) << dlock_last_error();
  clients_.push_back(on_redis);
  dlock_lock* members[] = {lock(zk, "/group/zk-member"), lock(on_redis, "group-redis-member")};
  dlock_multilock* group = nullptr;
  ASSERT_EQ(dlock_multilock_new(members, 2, &group), DLOCK_OK) << dlock_last_error();

  // The ZooKeeper member is held by another client: the group is refused and
  // leaves the Redis member free.
  dlock_client* other = open();
  dlock_lock* blocker = lock(other, "/group/zk-member");
  ASSERT_EQ(dlock_lock_acquire(blocker, 0, -1, nullptr), DLOCK_OK);
  EXPECT_EQ(dlock_multilock_acquire(group, 0, -1), DLOCK_NOT_ACQUIRED);
  int locked = -1;
  ASSERT_EQ(dlock_lock_is_locked(members[1], &locked), DLOCK_OK);
  EXPECT_EQ(locked, 0);

  // A waiting group is let in by the member's release.
  std::atomic<int> status{1000};
  std::thread waiting([&] {
    const int result = dlock_multilock_acquire(group, 10000, -1);
    status = result;
    if (result == DLOCK_OK) {
      int both = 0;
      dlock_lock_is_locked(members[1], &both);
      EXPECT_EQ(both, 1);
      EXPECT_EQ(dlock_multilock_release(group), DLOCK_OK);
    }
  });
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(status.load(), 1000) << "granted while a member was held";
  ASSERT_EQ(dlock_lock_release(blocker), DLOCK_OK);
  waiting.join();
  EXPECT_EQ(status.load(), DLOCK_OK) << dlock_last_error();
  EXPECT_TRUE(eventually([&] { return children("/group/zk-member").empty(); }));
  dlock_multilock_free(group);
}

// Curator's side of an interop case: tests/interop/curator/CuratorMutexLoop.java
// in a JVM, taking `kind` on `path` `cycles` times and appending its sections
// to `sections_path`; its output goes to `out`.
class CuratorLoop {
 public:
  CuratorLoop(const char* classpath, const std::string& hosts, const std::string& path, const std::string& kind,
              int cycles, const std::string& sections_path, std::string out)
      : out_(std::move(out)),
        process_({"java", "-cp", classpath, DLOCK_CURATOR_MUTEX_LOOP, hosts, path, std::to_string(cycles), "5",
                  sections_path, kind},
                 out_) {}

  // Whether it connected within 30 s.
  bool ready() {
    return dlock_test::wait_until([&] { return output().find("ready") != std::string::npos; },
                                  milliseconds(30000));
  }
  std::string output() const { return dlock_test::read_text_file(out_); }
  // Expects it to end, successfully, within 60 s.
  void expect_done() {
    const std::optional<int> status = process_.wait_for(milliseconds(60000));
    ASSERT_TRUE(status.has_value()) << "Curator's loop did not end";
    EXPECT_EQ(dlock_test::describe_wait_status(*status), dlock_test::describe_wait_status(0)) << output();
  }

 private:
  const std::string out_;
  dlock_test::ChildProcess process_;
};

// Runs body(0), ..., body(threads - 1) on threads of their own; returns when all have.
template <typename Body>
void on_threads(int threads, Body body) {
  std::vector<std::thread> running;
  for (int t = 0; t < threads; ++t) running.emplace_back(body, t);
  for (std::thread& thread : running) thread.join();
}

// Curator's `curator_kind` recipe (tests/interop/curator/CuratorMutexLoop.java,
// a JVM) and dlock locks made by `make` through the C ABI contend on `path`:
// judged by the safety checker over both sides' sections and a fenced store,
// with hand-offs both ways.
template <typename MakeLock>
void curator_and_dlock_take_turns(const std::string& hosts, const std::string& url, const std::string& path,
                                  const std::string& curator_kind, MakeLock make) {
  const char* classpath = std::getenv("DLOCK_TEST_CURATOR_CLASSPATH");
  if (classpath == nullptr || *classpath == '\0') GTEST_SKIP() << "DLOCK_TEST_CURATOR_CLASSPATH is not set";
  constexpr int curator_cycles = 20;
  constexpr int dlock_threads = 2;
  constexpr int dlock_cycles = 20;
  dlock_test::TempDir dir;
  const dlock_test::FencedStore store(dir.file("store"));
  const std::string sections_path = dir.file("sections");
  CuratorLoop curator(classpath, hosts, path, curator_kind, curator_cycles, sections_path, dir.file("curator.out"));
  ASSERT_TRUE(curator.ready()) << curator.output();
  std::atomic<int> failures{0};
  {
    dlock_test::SectionLog log(sections_path);
    on_threads(dlock_threads, [&](int t) {
      dlock_client* client = nullptr;
      dlock_lock* handle = nullptr;
      if (dlock_client_open(url.c_str(), nullptr, &client) != DLOCK_OK ||
          make(client, path.c_str(), &handle) != DLOCK_OK) {
        ++failures;
        dlock_client_close(client);
        return;
      }
      for (int i = 0; i < dlock_cycles; ++i) {
        uint64_t token = 0;
        if (dlock_lock_acquire(handle, 20000, -1, &token) != DLOCK_OK) {
          ++failures;
          break;
        }
        dlock_test::Section section;
        section.token = token;
        section.owner = "dlock" + std::to_string(t);
        section.start_ns = dlock_test::monotonic_ns();
        const long long value = store.read();
        std::this_thread::sleep_for(milliseconds(5));
        section.write_accepted = store.write(token, value + 1);
        section.end_ns = dlock_test::monotonic_ns();
        log.append(section);
        section.release_status = dlock_lock_release(handle);
        if (section.release_status != DLOCK_OK) ++failures;
      }
      dlock_lock_free(handle);
      dlock_client_close(client);
    });
  }
  curator.expect_done();
  ASSERT_EQ(failures.load(), 0);

  const std::vector<dlock_test::Section> sections = dlock_test::SectionLog::read(sections_path);
  const dlock_test::SafetyReport report = dlock_test::check_sections(sections);
  EXPECT_TRUE(report.clean()) << report.summary();
  EXPECT_EQ(report.sections, static_cast<std::size_t>(curator_cycles + dlock_threads * dlock_cycles));
  const dlock_test::Handoffs handoffs = dlock_test::count_handoffs(sections, "curator");
  EXPECT_GE(handoffs.from_owner, 1) << "never passed from Curator to dlock";
  EXPECT_GE(handoffs.to_owner, 1) << "never passed from dlock to Curator";
  EXPECT_EQ(store.state().stale_rejections, 0);
}

// Curator's InterProcessMutex and dlock_lock_new's lock. Skipped without
// Curator's jars (DLOCK_TEST_CURATOR_CLASSPATH).
TEST_F(ZkClient, CuratorAndTheCApiNeverHoldTogether) {
  curator_and_dlock_take_turns(hosts(), url(), "/interop/c-api", "mutex", dlock_lock_new);
}

// Curator's InterProcessSemaphoreMutex and dlock_lock_new_nonreentrant's lock.
TEST_F(ZkClient, CuratorAndTheCApiNonReentrantLocksNeverHoldTogether) {
  curator_and_dlock_take_turns(hosts(), url(), "/interop/c-api-once", "semaphore-mutex",
                               dlock_lock_new_nonreentrant);
}

// Curator's InterProcessSemaphoreV2 (maxLeases 2, as dlock's permits are set)
// and three dlock clients' permits through the C ABI share the leases on one
// path: never more than two sections at once, and both sides held one while
// another was held by the other side.
TEST_F(ZkClient, CuratorAndTheCApiPermitSemaphoresShareTheirLeases) {
  const char* classpath = std::getenv("DLOCK_TEST_CURATOR_CLASSPATH");
  if (classpath == nullptr || *classpath == '\0') GTEST_SKIP() << "DLOCK_TEST_CURATOR_CLASSPATH is not set";
  constexpr int permits = 2;
  constexpr int curator_cycles = 20;
  constexpr int dlock_threads = 3;
  constexpr int dlock_cycles = 15;
  const std::string path = "/interop/c-api-semaphore";
  {
    dlock_client* setter = open();
    dlock_permit_semaphore* semaphore = nullptr;
    int set = 0;
    ASSERT_EQ(dlock_permit_semaphore_new(setter, path.c_str(), &semaphore), DLOCK_OK);
    ASSERT_EQ(dlock_permit_semaphore_try_set_permits(semaphore, permits, &set), DLOCK_OK) << dlock_last_error();
    dlock_permit_semaphore_free(semaphore);
  }
  dlock_test::TempDir dir;
  const std::string sections_path = dir.file("sections");
  CuratorLoop curator(classpath, hosts(), path, "semaphore:" + std::to_string(permits), curator_cycles,
                      sections_path, dir.file("curator.out"));
  ASSERT_TRUE(curator.ready()) << curator.output();
  std::atomic<int> failures{0};
  {
    dlock_test::SectionLog log(sections_path);
    on_threads(dlock_threads, [&](int t) {
      dlock_client* client = nullptr;
      dlock_permit_semaphore* semaphore = nullptr;
      if (dlock_client_open(url().c_str(), nullptr, &client) != DLOCK_OK ||
          dlock_permit_semaphore_new(client, path.c_str(), &semaphore) != DLOCK_OK) {
        ++failures;
        dlock_client_close(client);
        return;
      }
      for (int i = 0; i < dlock_cycles; ++i) {
        char id[DLOCK_PERMIT_ID_SIZE];
        if (dlock_permit_semaphore_acquire(semaphore, 20000, -1, nullptr, id, sizeof id) != DLOCK_OK) {
          ++failures;
          break;
        }
        dlock_test::Section section;
        section.owner = "dlock" + std::to_string(t);
        section.start_ns = dlock_test::monotonic_ns();
        std::this_thread::sleep_for(milliseconds(5));
        section.end_ns = dlock_test::monotonic_ns();
        section.write_accepted = true;
        log.append(section);
        if (dlock_permit_semaphore_release(semaphore, id) != DLOCK_OK) ++failures;
      }
      dlock_permit_semaphore_free(semaphore);
      dlock_client_close(client);
    });
  }
  curator.expect_done();
  ASSERT_EQ(failures.load(), 0);

  // Counts the sections held at once, by a sweep over their starts and ends
  // (an end before a start at the same instant).
  const std::vector<dlock_test::Section> sections = dlock_test::SectionLog::read(sections_path);
  ASSERT_EQ(sections.size(), static_cast<std::size_t>(curator_cycles + dlock_threads * dlock_cycles));
  std::vector<std::tuple<int64_t, int, bool>> events;  // time, +1/-1, Curator's
  for (const dlock_test::Section& section : sections) {
    const bool by_curator = section.owner == "curator";
    events.emplace_back(section.start_ns, 1, by_curator);
    events.emplace_back(section.end_ns, -1, by_curator);
  }
  std::sort(events.begin(), events.end());
  int held = 0;
  int most = 0;
  int curator_held = 0;
  bool shared = false;  // a Curator section and a dlock one at once
  for (const auto& [at, change, by_curator] : events) {
    held += change;
    if (by_curator) curator_held += change;
    most = std::max(most, held);
    if (curator_held > 0 && held > curator_held) shared = true;
  }
  EXPECT_LE(most, permits) << "more sections at once than leases";
  EXPECT_EQ(most, permits) << "the permits were never all in use";
  EXPECT_TRUE(shared) << "Curator and dlock never held leases at the same time";
}

// A 3-node ensemble whose leader is killed while a client holds a lock and
// another waits: the holder keeps it (no loss told, no second holder while its
// node lives), its release then goes through on the new leader, the waiter is
// granted with a larger token.
TEST(ZkClientThreeNodes, LeaderKilledWhileALockIsHeldAndAwaited) {
  dlock_test::ZkEnsemble zk;
  // A session outlives the election (the servers' maximum, 4 s).
  const std::string url = "zookeeper://" + zk.connect_string() + "?session_timeout_ms=4000";
  dlock_client* holder_client = nullptr;
  dlock_client* waiter_client = nullptr;
  ASSERT_EQ(dlock_client_open(url.c_str(), nullptr, &holder_client), DLOCK_OK) << dlock_last_error();
  ASSERT_EQ(dlock_client_open(url.c_str(), nullptr, &waiter_client), DLOCK_OK) << dlock_last_error();
  dlock_lock* held = nullptr;
  dlock_lock* awaited = nullptr;
  ASSERT_EQ(dlock_lock_new(holder_client, "/ha/lock", &held), DLOCK_OK);
  ASSERT_EQ(dlock_lock_new(waiter_client, "/ha/lock", &awaited), DLOCK_OK);
  dlock_test::LostRecorder lost;
  ASSERT_EQ(lost.attach(held), DLOCK_OK);
  uint64_t held_token = 0;
  ASSERT_EQ(dlock_lock_acquire(held, 0, -1, &held_token), DLOCK_OK) << dlock_last_error();
  auto waiter = dlock_test::acquire_in_background(awaited, 2, 30000, -1);
  std::this_thread::sleep_for(milliseconds(300));

  zk.kill9(zk.leader_index());
  zk.leader_index(milliseconds(20000));
  std::this_thread::sleep_for(milliseconds(1000));
  EXPECT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout) << "granted while the holder held";
  EXPECT_EQ(lost.calls(), 0) << "the election cost the holder its lock";
  int release = DLOCK_E_INTERNAL;
  ASSERT_TRUE(dlock_test::wait_until(
      [&] {
        release = dlock_lock_release(held);
        return release != DLOCK_E_CONNECTION;
      },
      milliseconds(15000)));
  EXPECT_EQ(release, DLOCK_OK) << dlock_last_error();
  ASSERT_EQ(waiter.wait_for(milliseconds(15000)), std::future_status::ready);
  const dlock_test::AcquireOutcome outcome = waiter.get();
  EXPECT_EQ(outcome.status, DLOCK_OK);
  EXPECT_GT(outcome.token, held_token);
  dlock_lock_free(held);
  dlock_lock_free(awaited);
  dlock_client_close(holder_client);
  dlock_client_close(waiter_client);
}

}  // namespace
