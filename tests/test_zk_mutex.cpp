// The ZooKeeper backend's building blocks (src/backends/zookeeper) against real
// servers (ZkEnsemble): sessions and their errors, lock paths, and Curator's
// InterProcessMutex, InterProcessReadWriteLock and InterProcessSemaphoreV2
// layouts with their czxid fencing token, against Curator itself
// (docs/design/backends.md 2.1-2.6). Built only with the ZooKeeper C client (DLOCK_WITH_ZOOKEEPER).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zookeeper/zookeeper.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_mutex.hpp"
#include "backends/zookeeper/zk_nodes.hpp"
#include "backends/zookeeper/zk_paths.hpp"
#include "backends/zookeeper/zk_semaphore.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "child_process.hpp"
#include "common/error.hpp"
#include "fenced_store.hpp"
#include "monotonic_clock.hpp"
#include "redis_server.hpp"
#include "rw_safety_checker.hpp"
#include "safety_checker.hpp"
#include "section_log.hpp"
#include "tcp_proxy.hpp"
#include "temp_dir.hpp"
#include "text_file.hpp"
#include "wait_until.hpp"
#include "zk_ensemble.hpp"
#include "zk_one_node_suite.hpp"

namespace dlock_test {
namespace {

using dlock::zk::ZkMutex;
using dlock::zk::ZkSession;
using std::chrono::milliseconds;
using std::chrono::seconds;

int elapsed_ms(std::chrono::steady_clock::time_point since) {
  return static_cast<int>(
      std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - since).count());
}

std::unique_ptr<ZkSession> session_on(const std::string& hosts,
                                      int timeout_ms = ZkEnsemble::max_session_timeout_ms,
                                      const std::string& digest_credentials = "") {
  dlock::zk::SessionOptions options;
  options.hosts = hosts;
  options.session_timeout_ms = timeout_ms;
  options.digest_credentials = digest_credentials;
  options.connect_timeout = seconds(10);
  options.command_timeout = seconds(10);
  return std::make_unique<ZkSession>(options);
}

// ---------------------------------------------------------------- paths (no server)

TEST(ZkPaths, NamesBecomeOneEscapedComponentUnderDlock) {
  using dlock::zk::lock_path;
  EXPECT_EQ(lock_path("orders"), "/dlock/orders");
  EXPECT_EQ(lock_path("a-Z_0.9~"), "/dlock/a-Z_0.9~");
  EXPECT_EQ(lock_path("a/b"), "/dlock/a%2Fb");
  EXPECT_EQ(lock_path("50%"), "/dlock/50%25");
  EXPECT_EQ(lock_path("."), "/dlock/%2E");
  EXPECT_EQ(lock_path(".."), "/dlock/%2E%2E");
  EXPECT_EQ(lock_path("..."), "/dlock/...");
  EXPECT_EQ(lock_path(std::string("a\0b", 3)), "/dlock/a%00b");
  EXPECT_EQ(lock_path("\xff "), "/dlock/%FF%20");
  EXPECT_EQ(lock_path(std::string(1024, 'x')), "/dlock/" + std::string(1024, 'x'));
  EXPECT_THROW(lock_path(""), dlock::InvalidArgument);
  EXPECT_THROW(lock_path(std::string(1025, 'x')), dlock::InvalidArgument);
}

TEST(ZkPaths, PathsAreCheckedAsCuratorChecksThem) {
  using dlock::zk::lock_path;
  EXPECT_EQ(lock_path("/app/locks/orders"), "/app/locks/orders");
  EXPECT_EQ(lock_path("/caf\xc3\xa9"), "/caf\xc3\xa9");
  for (const std::string bad : {"/", "/a/", "/a//b", "/a/./b", "/a/..", "/.", "/a\x01", "/a\x7f", "/\xc2\x85",
                                "/\xef\xbf\xb0", "/\xf0\x9f\x98\x80", "/\xc3", "/\xc0\xaf"}) {
    EXPECT_THROW(lock_path(bad), dlock::InvalidArgument) << bad;
  }
  EXPECT_THROW(lock_path(std::string("/a\0b", 4)), dlock::InvalidArgument);
  try {
    lock_path("/a//b");
    FAIL();
  } catch (const dlock::InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("empty component"), std::string::npos) << error.what();
  }
}

TEST(ZkPaths, SortKeyIsTheTextAfterTheLastLockMarker) {
  using dlock::zk::sort_key;
  EXPECT_EQ(sort_key("_c_0f3e2d1c-aaaa-4bbb-8ccc-000000000000-lock-0000000007"), "0000000007");
  EXPECT_EQ(sort_key("x-lock-y-lock-0000000001"), "0000000001");
  EXPECT_EQ(sort_key("foreign"), "foreign");
  // The read-write lock's sides sort their own and each other's nodes by sequence.
  using dlock::zk::MutexKind;
  EXPECT_EQ(sort_key("_c_0f3e2d1c-aaaa-4bbb-8ccc-000000000000-__READ__0000000003", MutexKind::write),
            "0000000003");
  EXPECT_EQ(sort_key("_c_0f3e2d1c-aaaa-4bbb-8ccc-000000000000-__WRIT__0000000004", MutexKind::read),
            "0000000004");
}

// ---------------------------------------------------------------- one server

bool get_children_count_is(ZkSession& session, const std::string& path, std::size_t count) {
  return dlock::zk::get_children(session, path).children.size() == count;
}

class ZkMutexOneNode : public dlock_test::ZkOneNodeSuite {};

TEST_F(ZkMutexOneNode, SessionNegotiatesItsTimeoutAndRecordsContact) {
  std::atomic<int> changes{0};
  dlock::zk::SessionOptions options;
  options.hosts = hosts();
  options.session_timeout_ms = 60000;  // above the server's maximum: clamped
  const auto before = dlock::zk::Clock::now();
  ZkSession session(options, [&](dlock::zk::SessionState) { ++changes; });
  EXPECT_EQ(session.state(), dlock::zk::SessionState::connected);
  EXPECT_EQ(session.negotiated_timeout_ms(), ZkEnsemble::max_session_timeout_ms);
  EXPECT_NE(session.session_id(), 0);
  EXPECT_GE(changes.load(), 1);
  // The chroot check at open was answered: contact is confirmed from its send time.
  EXPECT_GE(session.last_confirmed_contact(), before);
  const auto sent = dlock::zk::Clock::now();
  EXPECT_EQ(dlock::zk::exists(session, "/").rc, ZOK);
  EXPECT_GE(session.last_confirmed_contact(), sent);
  session.close();
  EXPECT_EQ(session.state(), dlock::zk::SessionState::closed);
  session.close();
}

TEST_F(ZkMutexOneNode, ClosedPortIsAConnectionErrorWithinTheTimeout) {
  dlock::zk::SessionOptions options;
  options.hosts = "127.0.0.1:" + std::to_string(pick_free_port());
  options.connect_timeout = milliseconds(1500);
  const auto start = std::chrono::steady_clock::now();
  try {
    ZkSession session(options);
    FAIL() << "a session on a closed port";
  } catch (const dlock::ConnectionError& error) {
    EXPECT_NE(std::string(error.what()).find("no ZooKeeper session on " + options.hosts), std::string::npos)
        << error.what();
  }
  const int took = elapsed_ms(start);
  EXPECT_LT(took, 3000);
  RecordProperty("closed_port_error_ms", took);
}

TEST_F(ZkMutexOneNode, MissingChrootIsAClearError) {
  try {
    session_on(hosts() + "/no/such/chroot");
    FAIL() << "a session under a missing chroot";
  } catch (const dlock::InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("chroot /no/such/chroot does not exist"), std::string::npos)
        << error.what();
  }
  auto root = session_on(hosts());
  ASSERT_EQ(dlock::zk::create(*root, "/apps", "", 0).rc, ZOK);
  auto chrooted = session_on(hosts() + "/apps");
  ZkMutex lock(*chrooted, "/locked");
  ASSERT_TRUE(lock.acquire(seconds(5)));
  // The node is under the chroot on the server, and named without it by the client.
  EXPECT_EQ(lock.node_path().rfind("/locked/" + lock.node_prefix(), 0), 0u) << lock.node_path();
  EXPECT_EQ(dlock::zk::exists(*root, "/apps" + lock.node_path()).rc, ZOK);
  lock.release();
}

// A parent only its creator may write (ZooKeeper's "auth" ACL: whoever added
// the creator's digest credentials): a session without them, or with a wrong
// password, is refused with an AuthError naming the path and leaves no node;
// the creator's credentials are granted the lock.
TEST_F(ZkMutexOneNode, APathTheSessionMayNotWriteIsAnAuthErrorThatLeavesNothing) {
  const std::string credentials = "alice:Pa55-right";
  auto alice = session_on(hosts(), ZkEnsemble::max_session_timeout_ms, credentials);
  char created[64];
  ASSERT_EQ(zoo_create(alice->handle(), "/secured", "", 0, &ZOO_CREATOR_ALL_ACL, 0, created, sizeof created),
            ZOK);
  for (const std::string& refused : {std::string(), std::string("alice:wrong")}) {
    auto session = session_on(hosts(), ZkEnsemble::max_session_timeout_ms, refused);
    ZkMutex lock(*session, "/secured/orders");
    try {
      lock.acquire(seconds(5));
      FAIL() << "granted with credentials '" << refused << "'";
    } catch (const dlock::AuthError& error) {
      EXPECT_NE(std::string(error.what()).find("/secured/orders"), std::string::npos) << error.what();
      EXPECT_EQ(std::string(error.what()).find("wrong"), std::string::npos)
          << "a password in: " << error.what();
    }
    EXPECT_TRUE(dlock::zk::get_children(*alice, "/secured").children.empty());
  }
  ZkMutex lock(*alice, "/secured/orders");
  ASSERT_TRUE(lock.acquire(seconds(5)));
  lock.release();
}

// A scheme the server does not know fails the session's authentication, which
// ends the session (the digest scheme itself never fails: see the test above).
TEST_F(ZkMutexOneNode, FailedAuthenticationEndsTheSession) {
  dlock::zk::SessionOptions options;
  options.hosts = hosts();
  options.connect_timeout = seconds(10);
  std::atomic<bool> told_auth_failed{false};
  ZkSession session(options, [&](dlock::zk::SessionState state) {
    if (state == dlock::zk::SessionState::auth_failed) told_auth_failed = true;
  });
  auto answer = dlock::zk::send_add_auth(session, "no-such-scheme", "bob:Pa55-secret");
  EXPECT_EQ(dlock::zk::await(session, answer, "addAuth", "bob"), ZAUTHFAILED);
  EXPECT_TRUE(wait_until([&] { return told_auth_failed.load(); }, seconds(5)));
  EXPECT_FALSE(session.wait_connected(milliseconds(500))) << "state " << to_string(session.state());
}

TEST_F(ZkMutexOneNode, GrantIsCuratorsNodeAndItsTokenIsTheCzxid) {
  auto session = session_on(hosts());
  std::uint64_t previous = 0;
  for (int round = 0; round < 3; ++round) {
    ZkMutex lock(*session, "/grant/orders", dlock::zk::MutexKind::mutex, "owner-a");
    ASSERT_TRUE(lock.acquire(seconds(5)));
    // _c_ + 36-char UUID + "-lock-" + 10 digits, as Curator's protected mutex names it.
    const std::string name = lock.node_path().substr(std::string("/grant/orders/").size());
    ASSERT_EQ(name.size(), 3u + 36u + 1u + 5u + 10u) << name;
    EXPECT_EQ(name.substr(0, 3), "_c_");
    EXPECT_EQ(name.substr(39, 6), "-lock-");
    const auto stat = dlock::zk::exists(*session, lock.node_path());
    ASSERT_EQ(stat.rc, ZOK);
    EXPECT_EQ(lock.token(), static_cast<std::uint64_t>(stat.stat.czxid));
    EXPECT_EQ(stat.stat.ephemeralOwner, session->session_id());
    EXPECT_GT(lock.token(), previous);
    previous = lock.token();
    // A fresh parent each round: the sequence starts again, the token does not.
    EXPECT_EQ(name.substr(45), "0000000000");
    const std::string node = lock.node_path();
    lock.release();
    EXPECT_EQ(dlock::zk::exists(*session, node).rc, ZNONODE);
    EXPECT_THROW(lock.release(), dlock::ProtocolError);
    ASSERT_TRUE(wait_until(
        [&] {
          const int rc = dlock::zk::remove(*session, "/grant/orders");
          return rc == ZOK || rc == ZNONODE;
        },
        seconds(5)));
  }
}

TEST_F(ZkMutexOneNode, ReleaseOfANodeDeletedByAnotherClientIsALoss) {
  auto holder = session_on(hosts());
  auto admin = session_on(hosts());
  ZkMutex lock(*holder, "/lost/one");
  ASSERT_TRUE(lock.acquire(seconds(5)));
  ASSERT_EQ(dlock::zk::remove(*admin, lock.node_path()), ZOK);
  try {
    lock.release();
    FAIL();
  } catch (const dlock::LostError& error) {
    EXPECT_NE(std::string(error.what()).find("/lost/one/"), std::string::npos) << error.what();
  }
}

// What a keeper asks each period: are the held nodes still ours? One wait for
// all of them; a node deleted by another client, or another session's node
// made on its path since, is not.
TEST_F(ZkMutexOneNode, HeldNodesAreCheckedInOneRoundTrip) {
  TcpProxy proxy(server_->client_port(0));
  dlock::zk::SessionOptions options;
  options.hosts = "127.0.0.1:" + std::to_string(proxy.port());
  options.session_timeout_ms = ZkEnsemble::max_session_timeout_ms;
  options.command_timeout = milliseconds(500);
  ZkSession holder(options);
  auto admin = session_on(hosts());
  std::vector<std::unique_ptr<ZkMutex>> locks;
  std::vector<dlock::zk::HeldNode> nodes;
  for (const char* path : {"/held/a", "/held/b", "/held/c"}) {
    locks.push_back(std::make_unique<ZkMutex>(holder, path));
    ASSERT_TRUE(locks.back()->acquire(seconds(5)));
    nodes.push_back({locks.back()->node_path(), locks.back()->token()});
  }
  const auto waits = holder.waits_for_server();
  EXPECT_EQ(dlock::zk::still_held(holder, nodes), (std::vector<bool>{true, true, true}));
  EXPECT_EQ(holder.waits_for_server() - waits, 1u);
  ASSERT_EQ(dlock::zk::remove(*admin, nodes[1].path), ZOK);
  ASSERT_EQ(dlock::zk::remove(*admin, nodes[2].path), ZOK);
  ASSERT_EQ(dlock::zk::create(*admin, nodes[2].path, "", ZOO_EPHEMERAL).rc, ZOK);
  EXPECT_EQ(dlock::zk::still_held(holder, nodes), (std::vector<bool>{true, false, false}));
  EXPECT_TRUE(dlock::zk::still_held(holder, {}).empty());
  // Unanswered (the link is cut): an error, not a verdict on the holds.
  proxy.partition();
  EXPECT_THROW(dlock::zk::still_held(holder, nodes), dlock::ConnectionError);
  proxy.heal();
}

int median_us(std::vector<std::int64_t> samples_ns) {
  std::sort(samples_ns.begin(), samples_ns.end());
  return static_cast<int>(samples_ns[samples_ns.size() / 2] / 1000);
}

// One wait for the server per uncontended grant (create and getChildren
// pipelined), against Curator's order (create, wait, getChildren, wait),
// interleaved so both see the same server.
TEST_F(ZkMutexOneNode, UncontendedAcquireIsOneRoundTrip) {
  auto session = session_on(hosts());
  ASSERT_EQ(dlock::zk::create(*session, "/rt", "", 0).rc, ZOK);  // persistent: it stays between grants
  constexpr int rounds = 50;
  std::uint64_t waits = 0;
  std::uint64_t curator_waits = 0;
  std::vector<std::int64_t> pipelined_ns;
  std::vector<std::int64_t> sequential_ns;
  for (int i = 0; i < rounds; ++i) {
    ZkMutex lock(*session, "/rt");
    std::uint64_t before = session->waits_for_server();
    std::int64_t start = monotonic_ns();
    ASSERT_TRUE(lock.begin().granted);
    pipelined_ns.push_back(monotonic_ns() - start);
    waits += session->waits_for_server() - before;
    lock.release();

    before = session->waits_for_server();
    start = monotonic_ns();
    const auto node = dlock::zk::create(*session, "/rt/_c_x-lock-", "", ZOO_EPHEMERAL_SEQUENTIAL);
    ASSERT_EQ(node.rc, ZOK);
    ASSERT_EQ(dlock::zk::get_children(*session, "/rt").rc, ZOK);
    sequential_ns.push_back(monotonic_ns() - start);
    curator_waits += session->waits_for_server() - before;
    ASSERT_EQ(dlock::zk::remove(*session, node.path), ZOK);
  }
  EXPECT_EQ(waits, static_cast<std::uint64_t>(rounds)) << "waits for the server per uncontended grant";
  EXPECT_EQ(curator_waits, 2u * rounds);
  RecordProperty("waits_per_uncontended_grant_x100", static_cast<int>(waits * 100 / rounds));
  RecordProperty("pipelined_grant_median_us", median_us(pipelined_ns));
  RecordProperty("sequential_create_list_median_us", median_us(sequential_ns));
}

TEST_F(ZkMutexOneNode, WaitersAreServedInSequenceOrderAndEachReleaseWakesOne) {
  constexpr int waiters = 3;
  auto holder_session = session_on(hosts());
  ZkMutex holder(*holder_session, "/fifo");
  ASSERT_TRUE(holder.acquire(seconds(5)));
  std::vector<std::unique_ptr<ZkSession>> sessions;
  std::vector<std::unique_ptr<ZkMutex>> locks;
  std::vector<std::atomic<int>> fired(waiters);
  std::vector<std::atomic<std::int64_t>> fired_ns(waiters);
  for (int i = 0; i < waiters; ++i) {
    sessions.push_back(session_on(hosts()));
    locks.push_back(std::make_unique<ZkMutex>(*sessions.back(), "/fifo"));
    ASSERT_FALSE(locks.back()->begin().granted);
    fired[i] = 0;
    locks.back()->watch([&fired, &fired_ns, i] {
      fired_ns[i] = monotonic_ns();
      ++fired[i];
    });
  }
  // Each waits behind the one that came before it, holder first.
  EXPECT_EQ(locks[0]->predecessor(), holder.node_path());
  for (int i = 1; i < waiters; ++i) EXPECT_EQ(locks[i]->predecessor(), locks[i - 1]->node_path());

  std::uint64_t token = holder.token();
  ZkMutex* current = &holder;
  int worst_handoff_us = 0;
  for (int next = 0; next < waiters; ++next) {
    const std::int64_t released_ns = monotonic_ns();
    current->release();
    ASSERT_TRUE(wait_until([&] { return fired[next].load() == 1; }, seconds(5))) << "waiter " << next;
    worst_handoff_us = std::max(worst_handoff_us, static_cast<int>((fired_ns[next] - released_ns) / 1000));
    std::this_thread::sleep_for(milliseconds(100));  // room for a wrong wake-up to show
    for (int other = next + 1; other < waiters; ++other) EXPECT_EQ(fired[other].load(), 0) << other;
    const ZkMutex::Check check = locks[next]->attempt();
    ASSERT_TRUE(check.granted) << next;
    EXPECT_GT(check.token, token);
    token = check.token;
    current = locks[next].get();
  }
  current->release();
  for (int i = 0; i < waiters; ++i) EXPECT_EQ(fired[i].load(), 1) << "watches fired for waiter " << i;
  RecordProperty("worst_release_to_signal_us", worst_handoff_us);
}

// Curator's InterProcessReadWriteLock layout: readers share; a writer waits
// for every node ahead of it, one predecessor at a time; a reader that comes
// after a waiting writer waits for that writer (first come, first served).
TEST_F(ZkMutexOneNode, ReadersShareAndAWriterWaitsForEveryoneAhead) {
  using dlock::zk::MutexKind;
  const std::string path = "/rw/orders";
  std::vector<std::unique_ptr<ZkSession>> sessions;
  for (int i = 0; i < 4; ++i) sessions.push_back(session_on(hosts()));
  ZkMutex first_reader(*sessions[0], path, MutexKind::read);
  ZkMutex second_reader(*sessions[1], path, MutexKind::read);
  ASSERT_TRUE(first_reader.acquire(seconds(5)));
  ASSERT_TRUE(second_reader.acquire(seconds(5)));
  EXPECT_NE(first_reader.node_path().find("-__READ__"), std::string::npos) << first_reader.node_path();

  ZkMutex writer(*sessions[2], path, MutexKind::write);
  ASSERT_FALSE(writer.begin().granted);
  EXPECT_NE(writer.node_path().find("-__WRIT__"), std::string::npos) << writer.node_path();
  EXPECT_EQ(writer.predecessor(), second_reader.node_path());
  ZkMutex late_reader(*sessions[3], path, MutexKind::read);
  ASSERT_FALSE(late_reader.begin().granted);
  EXPECT_EQ(late_reader.predecessor(), writer.node_path());

  std::atomic<int> writer_woken{0};
  std::atomic<int> late_reader_woken{0};
  writer.watch([&] { ++writer_woken; });
  late_reader.watch([&] { ++late_reader_woken; });
  second_reader.release();
  ASSERT_TRUE(wait_until([&] { return writer_woken.load() == 1; }, seconds(5)));
  EXPECT_FALSE(writer.attempt().granted) << "a reader is still in";
  EXPECT_EQ(writer.predecessor(), first_reader.node_path());
  writer.watch([&] { ++writer_woken; });
  first_reader.release();
  ASSERT_TRUE(wait_until([&] { return writer_woken.load() == 2; }, seconds(5)));
  const ZkMutex::Check written = writer.attempt();
  ASSERT_TRUE(written.granted);
  EXPECT_GT(written.token, second_reader.token());
  std::this_thread::sleep_for(milliseconds(100));  // room for a wrong wake-up to show
  EXPECT_EQ(late_reader_woken.load(), 0);

  writer.release();
  ASSERT_TRUE(wait_until([&] { return late_reader_woken.load() == 1; }, seconds(5)));
  const ZkMutex::Check read = late_reader.attempt();
  ASSERT_TRUE(read.granted);
  EXPECT_GT(read.token, written.token);
  late_reader.release();
}

// Curator's InterProcessSemaphoreV2 layout with 2 leases: holders' leases
// under <path>/leases, the gate <path>/locks empty once they hold; the next
// waiter holds the gate and watches the leases, the one after it queues on
// the gate; each release lets one more in, in order, tokens rising.
TEST_F(ZkMutexOneNode, SemaphoreLeasesAreCountedAndTheGateQueuesTheWaiters) {
  using dlock::zk::ZkSemaphoreLease;
  const std::string path = "/sem/jobs";
  std::vector<std::unique_ptr<ZkSession>> sessions;
  for (int i = 0; i < 4; ++i) sessions.push_back(session_on(hosts()));
  std::vector<std::unique_ptr<ZkSemaphoreLease>> leases;
  for (auto& session : sessions) leases.push_back(std::make_unique<ZkSemaphoreLease>(*session, path, 2));
  ASSERT_TRUE(leases[0]->acquire(seconds(5)));
  ASSERT_TRUE(leases[1]->acquire(seconds(5)));
  EXPECT_EQ(leases[0]->node_path().rfind(path + "/leases/_c_", 0), 0u) << leases[0]->node_path();
  EXPECT_NE(leases[0]->node_path().find("-lease-"), std::string::npos);
  EXPECT_TRUE(dlock::zk::get_children(*sessions[0], path + "/locks").children.empty());

  std::vector<std::atomic<int>> woken(4);
  for (auto& count : woken) count = 0;
  ASSERT_FALSE(leases[2]->begin().granted);
  leases[2]->watch([&] { ++woken[2]; });
  ASSERT_FALSE(leases[3]->begin().granted);
  leases[3]->watch([&] { ++woken[3]; });
  EXPECT_EQ(dlock::zk::get_children(*sessions[0], path + "/leases").children.size(), 3u);
  EXPECT_EQ(dlock::zk::get_children(*sessions[0], path + "/locks").children.size(), 2u);

  leases[0]->release();
  ASSERT_TRUE(wait_until([&] { return woken[2].load() == 1; }, seconds(5)));
  const dlock::zk::ZkCheck third = leases[2]->attempt();
  ASSERT_TRUE(third.granted);
  EXPECT_GT(third.token, leases[1]->token());
  // The third let the gate go: the fourth holds it now and waits for a lease.
  ASSERT_TRUE(wait_until([&] { return woken[3].load() == 1; }, seconds(5)));
  ASSERT_FALSE(leases[3]->attempt().granted);
  leases[3]->watch([&] { ++woken[3]; });
  leases[1]->release();
  ASSERT_TRUE(wait_until([&] { return woken[3].load() == 2; }, seconds(5)));
  const dlock::zk::ZkCheck fourth = leases[3]->attempt();
  ASSERT_TRUE(fourth.granted);
  EXPECT_GT(fourth.token, third.token);
  leases[2]->release();
  leases[3]->release();
  EXPECT_THROW(leases[3]->release(), dlock::ProtocolError);
}

TEST_F(ZkMutexOneNode, SemaphoreWaiterThatGivesUpLeavesNeitherLeaseNorGate) {
  using dlock::zk::ZkSemaphoreLease;
  auto holder_session = session_on(hosts());
  auto waiter_session = session_on(hosts());
  ZkSemaphoreLease holder(*holder_session, "/sem/quit", 1);
  ASSERT_TRUE(holder.acquire(seconds(5)));
  {
    ZkSemaphoreLease quitter(*waiter_session, "/sem/quit", 1);
    EXPECT_FALSE(quitter.acquire(milliseconds(300)));
  }
  EXPECT_TRUE(wait_until(
      [&] {
        return dlock::zk::get_children(*holder_session, "/sem/quit/leases").children.size() == 1 &&
               dlock::zk::get_children(*holder_session, "/sem/quit/locks").children.empty();
      },
      seconds(5)));
  EXPECT_THROW(ZkSemaphoreLease(*waiter_session, "/sem/quit", 0), dlock::InvalidArgument);
  holder.release();
}

// A thousand waiters on one lock, over 10 sessions: each release wakes the
// next waiter alone (one watch fired per hand-off), grants follow the nodes'
// sequence and their tokens rise. The waits are driven from one thread with
// begin/watch/attempt, as a wait engine drives them.
TEST_F(ZkMutexOneNode, AThousandWaitersAreServedInOrderOneWakeUpPerRelease) {
  constexpr int waiters = 1000;
  constexpr int sessions_used = 10;
  const std::string path = "/thousand";
  std::vector<std::unique_ptr<ZkSession>> sessions;
  for (int i = 0; i < sessions_used; ++i) sessions.push_back(session_on(hosts()));
  ZkMutex holder(*sessions[0], path);
  ASSERT_TRUE(holder.acquire(seconds(5)));

  std::mutex woken_mutex;
  std::condition_variable woken_changed;
  std::vector<int> woken;  // indexes of waiters whose watch fired, in firing order
  std::vector<std::unique_ptr<ZkMutex>> locks;
  const auto watch = [&](int index) {
    locks[index]->watch([&, index] {
      {
        std::lock_guard<std::mutex> guard(woken_mutex);
        woken.push_back(index);
      }
      woken_changed.notify_all();
    });
  };
  for (int i = 0; i < waiters; ++i) {
    locks.push_back(std::make_unique<ZkMutex>(*sessions[i % sessions_used], path));
    ASSERT_FALSE(locks.back()->begin().granted) << i;
    watch(i);
  }

  const auto started = std::chrono::steady_clock::now();
  std::uint64_t token = holder.token();
  holder.release();
  for (int next = 0; next < waiters; ++next) {
    std::unique_lock<std::mutex> guard(woken_mutex);
    ASSERT_TRUE(woken_changed.wait_for(guard, seconds(10),
                                       [&] { return woken.size() > static_cast<std::size_t>(next); }))
        << "nobody woken after grant " << next;
    ASSERT_EQ(woken[next], next) << "woken out of order";
    guard.unlock();
    const ZkMutex::Check check = locks[next]->attempt();
    ASSERT_TRUE(check.granted) << next;
    ASSERT_GT(check.token, token);
    token = check.token;
    locks[next]->release();
  }
  const auto elapsed = elapsed_ms(started);
  std::this_thread::sleep_for(milliseconds(100));  // room for a wrong wake-up to show
  std::lock_guard<std::mutex> guard(woken_mutex);
  EXPECT_EQ(woken.size(), static_cast<std::size_t>(waiters)) << "one wake-up per release";
  EXPECT_TRUE(get_children_count_is(*sessions[0], path, 0));
  RecordProperty("thousand_grants_ms", elapsed);
}

TEST_F(ZkMutexOneNode, AbandonedWaiterLeavesNoNodeAndIsSkipped) {
  auto holder_session = session_on(hosts());
  auto waiter_session = session_on(hosts());
  ZkMutex holder(*holder_session, "/abandon");
  ASSERT_TRUE(holder.acquire(seconds(5)));
  ZkMutex quitter(*waiter_session, "/abandon");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(quitter.acquire(milliseconds(300)));
  EXPECT_GE(elapsed_ms(start), 300);
  EXPECT_TRUE(wait_until(
      [&] { return dlock::zk::get_children(*holder_session, "/abandon").children.size() == 1; }, seconds(5)));
  holder.release();
  ZkMutex next(*waiter_session, "/abandon");
  EXPECT_TRUE(next.acquire(seconds(5)));
  next.release();
}

TEST_F(ZkMutexOneNode, ClosedHolderSessionHandsTheLockToTheWaiter) {
  auto holder_session = session_on(hosts());
  auto waiter_session = session_on(hosts());
  ZkMutex holder(*holder_session, "/closed");
  ASSERT_TRUE(holder.acquire(seconds(5)));
  std::atomic<bool> granted{false};
  std::atomic<std::int64_t> granted_ns{0};
  std::thread waiter([&] {
    ZkMutex lock(*waiter_session, "/closed");
    if (lock.acquire(seconds(10))) {
      granted_ns = monotonic_ns();
      granted = true;
      lock.release();
    }
  });
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_FALSE(granted.load());
  const std::int64_t closed_ns = monotonic_ns();
  holder_session->close();  // the ephemeral node goes with the session
  waiter.join();
  EXPECT_TRUE(granted.load());
  RecordProperty("session_close_to_grant_ms", static_cast<int>((granted_ns - closed_ns) / 1000000));
}

TEST_F(ZkMutexOneNode, ForkedChildLeavesTheParentsSessionAndLockAlone) {
  auto session = session_on(hosts());
  ZkMutex lock(*session, "/forked");
  ASSERT_TRUE(lock.acquire(seconds(5)));
  const std::int64_t id = session->session_id();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    session->abandon_in_child();
    session.reset();  // what a child's cleanup does: must not end the parent's session
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_EQ(describe_wait_status(status), describe_wait_status(0));
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_EQ(session->state(), dlock::zk::SessionState::connected);
  EXPECT_EQ(session->session_id(), id);
  auto observer = session_on(hosts());
  const auto node = dlock::zk::exists(*observer, lock.node_path());
  ASSERT_EQ(node.rc, ZOK);
  EXPECT_EQ(node.stat.ephemeralOwner, id);
  lock.release();
}

// A holder stopped (SIGSTOP) past its session timeout: the server expires the
// session and the waiter is granted; resumed, the holder knows at once that
// its hold may be gone (before any answer), its late write is refused by the
// fencing token, the C client then reports the session expired, and its
// release finds the node gone.
TEST_F(ZkMutexOneNode, HolderPausedPastItsSessionTimeoutIsToldAndFencedOff) {
  constexpr int session_timeout_ms = 1000;
  TempDir dir;
  FencedStore store(dir.file("store"));
  const std::string held = dir.file("held");
  const std::string resumed = dir.file("resumed");
  const std::string findings = dir.file("findings");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int status = 1;
    try {
      auto session = session_on(hosts(), session_timeout_ms);
      ZkMutex lock(*session, "/paused");
      if (lock.acquire(seconds(5)) && store.write(lock.token(), 1)) {
        std::ofstream(held) << "held";
        // The holder's period: one request keeps the session confirmed alive.
        while (access(resumed.c_str(), F_OK) != 0) {
          dlock::zk::exists(*session, lock.node_path());
          std::this_thread::sleep_for(milliseconds(100));
        }
        const bool told_at_once = session->may_have_expired(dlock::zk::Clock::now());
        const bool late_write_refused = !store.write(lock.token(), 2);
        const bool expired =
            wait_until([&] { return session->state() == dlock::zk::SessionState::expired; }, seconds(10));
        bool release_lost = false;
        try {
          lock.release();
        } catch (const dlock::LostError&) {
          release_lost = true;
        } catch (const dlock::ConnectionError&) {
          release_lost = true;  // an expired session answers nothing: the node went with it
        }
        std::ofstream(findings) << told_at_once << late_write_refused << expired << release_lost;
        status = 0;
      }
    } catch (const std::exception&) {
    }
    _exit(status);
  }
  ASSERT_TRUE(wait_until([&] { return access(held.c_str(), F_OK) == 0; }, seconds(10)));
  auto waiter_session = session_on(hosts());
  ASSERT_FALSE(waiter_session->may_have_expired(dlock::zk::Clock::now()));
  // Whatever fails below, the child is not left stopped (it would hold the test's output open).
  const std::shared_ptr<void> reap_child(nullptr, [child](void*) {
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
  });
  ZkMutex waiter(*waiter_session, "/paused");
  ASSERT_EQ(kill(child, SIGSTOP), 0);
  const auto stopped = std::chrono::steady_clock::now();
  ASSERT_TRUE(waiter.acquire(seconds(10)));
  const int granted_after_ms = elapsed_ms(stopped);
  EXPECT_GE(granted_after_ms, session_timeout_ms - 200);  // the server's tick rounds the expiry
  EXPECT_TRUE(store.write(waiter.token(), 10));
  ASSERT_EQ(kill(child, SIGCONT), 0);
  std::ofstream(resumed) << "go";
  ASSERT_TRUE(wait_until([&] { return !read_text_file(findings).empty(); }, seconds(15)));
  EXPECT_EQ(read_text_file(findings), "1111") << "told at once, late write refused, expired, release lost";
  EXPECT_EQ(store.state().value, 10);
  EXPECT_EQ(store.state().stale_rejections, 1);
  waiter.release();
  RecordProperty("granted_after_stop_ms", granted_after_ms);
}

// The create's answer is lost with the connection (the proxy holds its bytes):
// begin() lists the parent once the session is back and adopts the node with
// its UUID prefix, or creates it again when the server never saw it; either
// way one node of ours, granted, and none left behind.
TEST_F(ZkMutexOneNode, CreateWhoseAnswerWasLostIsSettledByItsProtectedPrefix) {
  TcpProxy proxy(server_->client_port(0));
  std::atomic<bool> suspended{false};
  dlock::zk::SessionOptions options;
  options.hosts = "127.0.0.1:" + std::to_string(proxy.port());
  options.session_timeout_ms = ZkEnsemble::max_session_timeout_ms;
  options.command_timeout = seconds(10);
  ZkSession session(options, [&](dlock::zk::SessionState state) {
    if (state == dlock::zk::SessionState::suspended) suspended = true;
  });
  auto observer = session_on(hosts());
  ASSERT_EQ(dlock::zk::create(*observer, "/unknown", "", 0).rc, ZOK);
  ZkMutex lock(session, "/unknown");
  proxy.partition();
  std::thread healer([&] {
    // Heal as soon as the client gives the connection up (2/3 of the session
    // timeout without an answer), well before the server expires the session.
    wait_until([&] { return suspended.load(); }, seconds(10));
    proxy.heal();
  });
  const auto start = std::chrono::steady_clock::now();
  ZkMutex::Check check;
  try {
    check = lock.begin();
  } catch (...) {
    healer.join();
    throw;
  }
  healer.join();
  RecordProperty("unknown_create_settled_ms", elapsed_ms(start));
  EXPECT_TRUE(suspended.load());
  EXPECT_TRUE(check.granted);
  const auto children = dlock::zk::get_children(*observer, "/unknown");
  ASSERT_EQ(children.rc, ZOK);
  ASSERT_EQ(children.children.size(), 1u);
  EXPECT_EQ(children.children[0].rfind(lock.node_prefix(), 0), 0u) << children.children[0];
  EXPECT_EQ(lock.node_path(), "/unknown/" + children.children[0]);
  const auto node = dlock::zk::exists(*observer, lock.node_path());
  ASSERT_EQ(node.rc, ZOK);
  EXPECT_EQ(lock.token(), static_cast<std::uint64_t>(node.stat.czxid));
  lock.release();
}

// `threads` threads, each on its own session, take the lock `cycles` times:
// each critical section reads the fenced store, writes value + 1 with the
// token, and goes to `log` (owner "dlock<thread>"). Returns how many failed.
// Threads, each on its own session, take `make_lock(session)`'s recipe
// `cycles` times and log their sections as `owner_prefix`<n>; unless
// `read_only`, each section writes the fenced store under its token.
template <typename MakeLock>
int take_turns(const std::string& hosts, int threads, int cycles, const FencedStore& store, SectionLog& log,
               milliseconds hold, const std::string& owner_prefix, bool read_only, MakeLock make_lock) {
  std::atomic<int> failures{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      try {
        auto session = session_on(hosts);
        for (int i = 0; i < cycles; ++i) {
          auto lock = make_lock(*session);
          if (!lock->acquire(seconds(20))) {
            ++failures;
            return;
          }
          Section section;
          section.token = lock->token();
          section.owner = owner_prefix + std::to_string(t);
          section.start_ns = monotonic_ns();
          const long long value = store.read();
          std::this_thread::sleep_for(hold);
          section.write_accepted = read_only || store.write(lock->token(), value + 1);
          section.end_ns = monotonic_ns();
          log.append(section);
          lock->release();
        }
      } catch (const std::exception&) {
        ++failures;
      }
    });
  }
  for (auto& worker : workers) worker.join();
  return failures.load();
}

// The same with a ZkMutex of `kind`, logged as rw_safety_checker reads them:
// "r:dlock<n>" and "w:dlock<n>" for the read-write lock's sides, "dlock<n>"
// for the mutex.
int take_turns(const std::string& hosts, const std::string& path, int threads, int cycles,
               const FencedStore& store, SectionLog& log, milliseconds hold,
               dlock::zk::MutexKind kind = dlock::zk::MutexKind::mutex) {
  using dlock::zk::MutexKind;
  const std::string owner_prefix = kind == MutexKind::read    ? "r:dlock"
                                   : kind == MutexKind::write ? "w:dlock"
                                                              : "dlock";
  return take_turns(hosts, threads, cycles, store, log, hold, owner_prefix, kind == MutexKind::read,
                    [&](ZkSession& session) { return std::make_unique<ZkMutex>(session, path, kind); });
}

// Threads on their own sessions take turns; an independent fenced store and the
// section log judge the result (tests/support/safety_checker).
TEST_F(ZkMutexOneNode, ContendingSessionsNeverOverlap) {
  constexpr int threads = 3;
  constexpr int cycles = 15;
  TempDir dir;
  FencedStore store(dir.file("store"));
  {
    SectionLog log(dir.file("sections"));
    ASSERT_EQ(take_turns(hosts(), "/contended", threads, cycles, store, log, milliseconds(2)), 0);
  }
  const SafetyReport report = check_sections(SectionLog::read(dir.file("sections")));
  EXPECT_EQ(report.sections, static_cast<std::size_t>(threads * cycles));
  EXPECT_TRUE(report.clean()) << report.summary();
  EXPECT_EQ(store.state().value, threads * cycles);
  EXPECT_EQ(store.state().stale_rejections, 0);
}

// ---------------------------------------------------------------- three servers

TEST(ZkMutexThreeNodes, LeaderKilledWhileHeldAndAwaited) {
  ZkEnsemble zk;
  auto holder_session = session_on(zk.connect_string());
  auto waiter_session = session_on(zk.connect_string());
  ZkMutex holder(*holder_session, "/ha/lock");
  ASSERT_TRUE(holder.acquire(seconds(5)));
  const std::uint64_t held_token = holder.token();

  std::atomic<bool> granted{false};
  std::atomic<std::uint64_t> waiter_token{0};
  std::atomic<std::int64_t> granted_ns{0};
  std::string waiter_error;
  std::thread waiter([&] {
    try {
      ZkMutex lock(*waiter_session, "/ha/lock");
      // Signals from the reconnect make it re-check; the grant still waits for the release.
      if (lock.acquire(seconds(30))) {
        granted_ns = monotonic_ns();
        waiter_token = lock.token();
        granted = true;
        lock.release();
      }
    } catch (const std::exception& error) {
      waiter_error = error.what();
    }
  });
  ASSERT_TRUE(wait_until(
      [&] { return dlock::zk::get_children(*holder_session, "/ha/lock").children.size() == 2; }, seconds(5)));

  const auto killed_at = std::chrono::steady_clock::now();
  zk.kill9(zk.leader_index());
  zk.leader_index(seconds(20));
  const int election_ms = elapsed_ms(killed_at);
  // The holder still holds: no second holder while its node lives.
  ASSERT_TRUE(wait_until(
      [&] {
        try {
          return dlock::zk::exists(*holder_session, holder.node_path()).rc == ZOK;
        } catch (const dlock::ConnectionError&) {
          return false;
        }
      },
      seconds(15)));
  std::this_thread::sleep_for(milliseconds(500));
  EXPECT_FALSE(granted.load()) << "the waiter got the lock while the holder's node lived";

  const std::int64_t released_ns = monotonic_ns();
  holder.release();
  waiter.join();
  EXPECT_EQ(waiter_error, "");
  ASSERT_TRUE(granted.load());
  EXPECT_GT(waiter_token.load(), held_token);
  // A grant on a node created under the new leader: a token from the higher epoch.
  ZkMutex later(*holder_session, "/ha/lock");
  ASSERT_TRUE(later.acquire(seconds(5)));
  EXPECT_GT(later.token(), waiter_token.load());
  EXPECT_GT(later.token() >> 32, held_token >> 32);
  later.release();
  RecordProperty("election_ms", election_ms);
  RecordProperty("release_to_grant_after_election_ms",
                 static_cast<int>((granted_ns - released_ns) / 1000000));
}

// ---------------------------------------------------------------- Curator interop

// ---------------------------------------------------------------- against Curator

// Curator's recipes in processes of their own (tests/interop/curator/CuratorMutexLoop.java)
// and dlock's threads on one path of a one-node ensemble, both writing their
// sections to one log that a checker judges. Needs Curator's jars
// (tests/interop/curator/fetch-curator.sh, DLOCK_TEST_CURATOR_CLASSPATH).
class ZkMutexCurator : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* classpath = std::getenv("DLOCK_TEST_CURATOR_CLASSPATH");
    if (!classpath || !*classpath) {
      GTEST_SKIP() << "no Curator: tests/interop/curator/fetch-curator.sh DIR, then configure with "
                      "-DDLOCK_TEST_CURATOR_CLASSPATH='DIR/*'";
    }
    classpath_ = classpath;
    zk_ = std::make_unique<ZkEnsemble>(ZkEnsembleConfig{1, {}});
    log_ = std::make_unique<SectionLog>(log_path());
  }

  // Starts Curator's `kind` recipe ("mutex", "read", "write", "semaphore") on
  // `path` for `cycles` sections of 5 ms, and waits until it is connected.
  void start_curator(const std::string& path, int cycles, const std::string& kind) {
    const std::string out = dir_.file("curator-" + kind + ".out");
    curators_.push_back(std::make_unique<ChildProcess>(
        std::vector<std::string>{"java", "-cp", classpath_, DLOCK_CURATOR_MUTEX_LOOP, hosts(), path,
                                 std::to_string(cycles), "5", log_path(), kind},
        out));
    ASSERT_TRUE(
        wait_until([&] { return read_text_file(out).find("ready") != std::string::npos; }, seconds(30)))
        << read_text_file(out);
  }

  // Every Curator process ended well.
  void expect_curators_done() {
    for (auto& curator : curators_) {
      const auto status = curator->wait_for(seconds(60));
      ASSERT_TRUE(status.has_value()) << "Curator's loop did not end";
      EXPECT_EQ(describe_wait_status(*status), describe_wait_status(0));
    }
  }

  std::string hosts() const { return zk_->connect_string(); }
  std::string log_path() const { return dir_.file("sections"); }

  TempDir dir_;
  FencedStore store_{dir_.file("store")};
  std::unique_ptr<ZkEnsemble> zk_;
  std::unique_ptr<SectionLog> log_;

 private:
  std::string classpath_;
  std::vector<std::unique_ptr<ChildProcess>> curators_;
};

// InterProcessMutex and ZkMutex take turns: no overlap, rising tokens, and
// hand-offs both ways.
TEST_F(ZkMutexCurator, CuratorAndDlockTakeTurnsOnOneMutex) {
  constexpr int curator_cycles = 20;
  constexpr int dlock_threads = 2;
  constexpr int dlock_cycles = 20;
  const std::string path = "/interop/mutex";
  start_curator(path, curator_cycles, "mutex");
  const int failures = take_turns(hosts(), path, dlock_threads, dlock_cycles, store_, *log_, milliseconds(5));
  expect_curators_done();
  ASSERT_EQ(failures, 0);

  const std::vector<Section> sections = SectionLog::read(log_path());
  const SafetyReport report = check_sections(sections);
  EXPECT_TRUE(report.clean()) << report.summary();
  EXPECT_EQ(report.sections, static_cast<std::size_t>(curator_cycles + dlock_threads * dlock_cycles));
  const Handoffs handoffs = count_handoffs(sections, "curator");
  EXPECT_GE(handoffs.from_owner, 1);
  EXPECT_GE(handoffs.to_owner, 1);
  EXPECT_EQ(store_.state().stale_rejections, 0);
  RecordProperty("curator_to_dlock_handoffs", handoffs.from_owner);
  RecordProperty("dlock_to_curator_handoffs", handoffs.to_owner);
}

// InterProcessReadWriteLock, a reader and a writer process, and ZkMutex's read
// and write sides, a thread each: no write section meets any other section,
// tokens rise between writes and the sections around them, and reads share.
TEST_F(ZkMutexCurator, CuratorAndDlockShareOneReadWriteLock) {
  using dlock::zk::MutexKind;
  constexpr int cycles = 15;
  const std::string path = "/interop/rw";
  start_curator(path, cycles, "read");
  start_curator(path, cycles, "write");
  std::atomic<int> failures{0};
  std::thread reader([&] {
    failures += take_turns(hosts(), path, 1, cycles, store_, *log_, milliseconds(5), MutexKind::read);
  });
  failures += take_turns(hosts(), path, 1, cycles, store_, *log_, milliseconds(5), MutexKind::write);
  reader.join();
  expect_curators_done();
  ASSERT_EQ(failures.load(), 0);

  const std::vector<Section> sections = SectionLog::read(log_path());
  ASSERT_EQ(sections.size(), static_cast<std::size_t>(4 * cycles));
  const RwSafetyReport report = check_rw_sections(sections);
  EXPECT_TRUE(report.clean()) << report.summary();
  EXPECT_EQ(report.writers.sections, static_cast<std::size_t>(2 * cycles));
  EXPECT_EQ(store_.state().stale_rejections, 0);
  RecordProperty("shared_reads", static_cast<int>(report.shared_reads));
}

// InterProcessSemaphoreV2 with one lease (InterProcessSemaphoreMutex) and
// dlock's leases, two threads: no overlap, rising tokens.
TEST_F(ZkMutexCurator, CuratorAndDlockShareOneSemaphoreMutex) {
  constexpr int curator_cycles = 20;
  constexpr int dlock_threads = 2;
  constexpr int dlock_cycles = 15;
  const std::string path = "/interop/semaphore";
  start_curator(path, curator_cycles, "semaphore");
  const int failures = take_turns(
      hosts(), dlock_threads, dlock_cycles, store_, *log_, milliseconds(5), "dlock", false,
      [&](ZkSession& session) { return std::make_unique<dlock::zk::ZkSemaphoreLease>(session, path, 1); });
  expect_curators_done();
  ASSERT_EQ(failures, 0);

  const SafetyReport report = check_sections(SectionLog::read(log_path()));
  EXPECT_TRUE(report.clean()) << report.summary();
  EXPECT_EQ(report.sections, static_cast<std::size_t>(curator_cycles + dlock_threads * dlock_cycles));
  EXPECT_EQ(store_.state().stale_rejections, 0);
}

}  // namespace
}  // namespace dlock_test
