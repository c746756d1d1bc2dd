// Inputs and server states that once lost locks, leaked passwords or overran
// timeouts: each test here failed before its fix.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <utility>

#include "background_acquire.hpp"
#include "dlock.h"
#include "dlock_handles.hpp"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_connection.hpp"
#include "redis_fixture.hpp"
#include "status_assertions.hpp"
#include "temp_dir.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

constexpr int64_t forever_ms = std::numeric_limits<int64_t>::max();

int closed_loopback_port() {
  RedisServer gone;
  return gone.port();
}

TEST(UrlMessages, PasswordsWithSlashOrQuestionMarkNeverReachAnError) {
  const int port = closed_loopback_port();
  std::mt19937 random(20261122);
  const std::string alphabet = "abcXYZ0189/?+=:@#%.-_";
  dlock_client_options options = default_options();
  options.connect_timeout_ms = 50;
  options.command_timeout_ms = 1;
  int rejected = 0;
  for (int round = 0; round < 400; ++round) {
    std::string password = "Pw" + std::to_string(round) + "-";
    for (int i = 0; i < 10; ++i) password += alphabet[random() % alphabet.size()];
    const std::string tails[] = {"", "/0", "/notadb", ":99999", "?bogus=1", "/1?pool_size=0", ":x/1"};
    const std::string url = "redis://alice:" + password + "@127.0.0.1:" + std::to_string(port) +
                            tails[random() % std::size(tails)];
    dlock_client* client = nullptr;
    const int status = dlock_client_open(url.c_str(), &options, &client);
    dlock_client_close(client);
    ASSERT_NE(status, DLOCK_OK) << "nothing listens on the port";
    rejected += status == DLOCK_E_INVALID;
    // Every password holds "Pw<round>-" and more: no fragment of its secret
    // part may show, however the URL was cut up.
    const std::string secret = password.substr(password.find('-') + 1, 6);
    ASSERT_EQ(std::string(dlock_last_error()).find(secret), std::string::npos)
        << "password leaked for " << url << ": " << dlock_last_error();
  }
  EXPECT_GT(rejected, 0) << "no malformed URL was tried";
}

TEST(UrlMessages, AHugeUrlGivesAShortMessage) {
  const std::string url = "redis://127.0.0.1:" + std::string(2 << 20, '9');
  dlock_client* client = nullptr;
  EXPECT_TRUE(invalid_naming(dlock_client_open(url.c_str(), nullptr, &client), "url"));
  EXPECT_LT(std::strlen(dlock_last_error()), 200u) << "the message quotes the URL whole";
  const std::string bad_option = "redis://127.0.0.1:1?" + std::string(1 << 20, 'k') + "=1";
  EXPECT_TRUE(invalid_naming(dlock_client_open(bad_option.c_str(), nullptr, &client), "url"));
  EXPECT_LT(std::strlen(dlock_last_error()), 200u);
}

TEST(Options, DurationsAreBoundedLikeTheUrlOnes) {
  dlock_client_options options = default_options();
  options.watchdog_timeout_ms = forever_ms;
  dlock_client* client = nullptr;
  EXPECT_TRUE(
      invalid_naming(dlock_client_open("redis://127.0.0.1:1", &options, &client), "watchdog_timeout_ms"));
  options = default_options();
  options.command_timeout_ms = forever_ms;
  EXPECT_TRUE(
      invalid_naming(dlock_client_open("redis://127.0.0.1:1", &options, &client), "command_timeout_ms"));
  EXPECT_EQ(client, nullptr);
}

TEST(Connecting, ARefusedConnectionAtOpenFailsAtOnce) {
  const int port = closed_loopback_port();
  dlock_client* client = nullptr;
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(
      status_is(dlock_client_open(("redis://127.0.0.1:" + std::to_string(port)).c_str(), nullptr, &client),
                DLOCK_E_CONNECTION));
  EXPECT_LT(monotonic_ms() - started, 500) << "a wrong address waited for the command timeout";
  EXPECT_NE(std::string(dlock_last_error()).find("refused"), std::string::npos) << dlock_last_error();
}

TEST(Connecting, AMissingUnixSocketFailsAtOnce) {
  TempDir dir;
  dlock_client* client = nullptr;
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(status_is(dlock_client_open(("unix://" + dir.file("absent.sock")).c_str(), nullptr, &client),
                        DLOCK_E_CONNECTION));
  EXPECT_LT(monotonic_ms() - started, 500) << "retried an error that cannot heal";
  EXPECT_NE(std::string(dlock_last_error()).find("absent.sock"), std::string::npos) << dlock_last_error();
}

dlock_client_options options_with_command_timeout(int64_t command_timeout_ms) {
  dlock_client_options options = default_options();
  options.command_timeout_ms = command_timeout_ms;
  return options;
}

class Hardening : public RedisFixture {};

TEST_F(Hardening, AnOverlongLeaseIsRefusedAndWritesNothing) {
  const ClientHandle client = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "overlong");
  for (const int64_t lease : {forever_ms, DLOCK_DURATION_MAX_MS + 1}) {
    EXPECT_TRUE(invalid_naming(dlock_lock_acquire(lock.get(), 0, lease, nullptr), "lease_ms")) << lease;
  }
  EXPECT_EQ(server().command({"EXISTS", "overlong"}).integer, 0);
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, DLOCK_DURATION_MAX_MS, nullptr), DLOCK_OK));
  EXPECT_GT(server().command({"PTTL", "overlong"}).integer, 0) << "the longest lease left no expiry";
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

TEST_F(Hardening, AnEndlessWaitWaitsInsteadOfGivingUp) {
  const ClientHandle holder = open_client(server().url());
  const ClientHandle waiter = open_client(server().url());
  const LockHandle held = new_lock(holder.get(), "endless");
  const LockHandle wanted = new_lock(waiter.get(), "endless");
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK));
  std::future<AcquireOutcome> outcome = acquire_in_background(wanted.get(), 7, forever_ms);
  EXPECT_EQ(outcome.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout)
      << "an INT64_MAX wait returned at once";
  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
  ASSERT_EQ(outcome.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_TRUE(status_is(outcome.get().status, DLOCK_OK));
}

// An acquire that timed out against a paused server still runs when the
// server resumes: the client withdraws it, so it holds nothing for its 30 s
// lease (another client waited 29.7 s before).
TEST_F(Hardening, AnAcquireThatTimedOutIsWithdrawn) {
  const ClientHandle client = open_client(server().url(), options_with_command_timeout(300));
  const ClientHandle other = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "timed-out");
  const LockHandle wanted = new_lock(other.get(), "timed-out");
  // A pooled connection with the script loaded: the acquire goes out at once.
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  server().pause();
  const int status = dlock_lock_acquire(lock.get(), 0, -1, nullptr);
  server().resume();
  ASSERT_TRUE(status_is(status, DLOCK_E_CONNECTION));
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(status_is(dlock_lock_acquire(wanted.get(), 10000, 5000, nullptr), DLOCK_OK));
  EXPECT_LT(monotonic_ms() - started, 5000) << "the timed-out acquire held the lock";
  int held = 1;
  ASSERT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 0);
  EXPECT_TRUE(status_is(dlock_lock_release(wanted.get()), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 5000, -1, nullptr), DLOCK_OK))
      << "and can acquire again";
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

// An owner that releases and asks again at once leaves the lock to the waiter
// its release woke, instead of always winning (grants per process ranged
// from 1 to 1,120 in an 8-process benchmark before).
TEST_F(Hardening, AReleasingOwnerLetsTheWokenWaiterGoFirst) {
  // A long yield, so a slow machine cannot turn the test into a race.
  const ClientHandle releaser = open_client(server().url() + "?release_yield_ms=1000");
  const ClientHandle waiting = open_client(server().url());
  const LockHandle mine = new_lock(releaser.get(), "turns");
  const LockHandle theirs = new_lock(waiting.get(), "turns");
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(status_is(dlock_lock_acquire(mine.get(), 0, -1, nullptr), DLOCK_OK));
    std::future<AcquireOutcome> waiter = acquire_in_background(theirs.get(), 2, 10000);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ASSERT_EQ(waiter.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout);
    ASSERT_TRUE(status_is(dlock_lock_release(mine.get()), DLOCK_OK));
    uint64_t again = 0;
    ASSERT_TRUE(status_is(dlock_lock_acquire(mine.get(), 10000, -1, &again), DLOCK_OK));
    ASSERT_TRUE(status_is(dlock_lock_release(mine.get()), DLOCK_OK));
    const AcquireOutcome outcome = waiter.get();
    ASSERT_TRUE(status_is(outcome.status, DLOCK_OK));
    EXPECT_LT(outcome.token, again) << "round " << round << ": the releasing owner took the lock first";
  }
}

TEST_F(Hardening, AStalledServerCostsNoMoreThanTheCommandTimeout) {
  dlock_client_options options = default_options();
  options.command_timeout_ms = 1000;
  const ClientHandle client = open_client(server().url(), options);
  const LockHandle lock = new_lock(client.get(), "stalled");
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  server().pause();
  const int64_t started = monotonic_ms();
  const int status = dlock_lock_acquire(lock.get(), 0, -1, nullptr);
  const int64_t took = monotonic_ms() - started;
  server().resume();
  EXPECT_TRUE(status_is(status, DLOCK_E_CONNECTION));
  // One command timeout plus scheduling slack, not one per retry.
  EXPECT_LT(took, 1600) << "a call overran its command timeout";
}

class BusyServer : public RedisFixtureWithConfig {
 protected:
  BusyServer() : RedisFixtureWithConfig({"busy-reply-threshold 100"}) {}
};

// A renewal that meets BUSY (a slow script elsewhere) is retried, not taken
// for a loss: the key still holds the caller's field.
TEST_F(BusyServer, RenewalsWaitOutABusyServerWithoutAFalseLoss) {
  const ClientHandle client = open_client(server().url(), options_with_watchdog(3000));
  const LockHandle lock = new_lock(client.get(), "busy");
  LostRecorder lost;
  lost.attach(lock.get());
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  // After the first renewal (at a third of the lease), so the next one meets
  // BUSY in the renewal itself, not in loading its script.
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  RedisConnection slow = server().connect();
  std::thread busy([&] {
    try {
      slow.command({"EVAL", "while true do end", "0"});
    } catch (const RedisIoError&) {
      // The script was killed: its client gets an error or a dropped reply.
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // past the second renewal
  RedisConnection admin = server().connect();
  admin.command({"SCRIPT", "KILL"});
  busy.join();
  EXPECT_EQ(lost.calls(), 0) << "a BUSY renewal reported a loss";
  int held = 0;
  ASSERT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 1);
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

// Runs a script that keeps the server BUSY until kill() (SCRIPT KILL).
class BusyScript {
 public:
  explicit BusyScript(RedisServer& server) : server_(server), slow_(server.connect()) {
    thread_ = std::thread([this] {
      try {
        slow_.command({"EVAL", "while true do end", "0"});
      } catch (const RedisIoError&) {
        // The script was killed: its client gets an error or a dropped reply.
      }
    });
    // Past busy-reply-threshold: from here on, other clients get BUSY.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  ~BusyScript() { kill(); }
  void kill() {
    if (!thread_.joinable()) return;
    server_.connect().command({"SCRIPT", "KILL"});
    thread_.join();
  }

 private:
  RedisServer& server_;
  RedisConnection slow_;
  std::thread thread_;
};

// Takes `lock` and lets its release fail on a busy server; the slow script is
// killed before this returns.
void hold_then_fail_the_release(RedisServer& server, dlock_lock* lock) {
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock, 0, -1, nullptr), DLOCK_OK));
  BusyScript busy(server);
  EXPECT_TRUE(status_is(dlock_lock_release(lock), DLOCK_E_CONNECTION));
}

// A release that fails is kept pending, not forgotten: the caller's second
// release retries it (it was "not owner" before).
TEST_F(BusyServer, AFailedReleaseCanBeRetriedByTheCaller) {
  const ClientHandle client = open_client(server().url(), options_with_command_timeout(500));
  const LockHandle lock = new_lock(client.get(), "busy-release");
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  BusyScript busy(server());
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_CONNECTION));
  EXPECT_NE(std::string(dlock_last_error()).find("BUSY"), std::string::npos) << dlock_last_error();
  busy.kill();
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK)) << "the retry of a failed release";
  EXPECT_EQ(server().command({"EXISTS", "busy-release"}).integer, 0);
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_NOT_OWNER)) << "released once only";
}

// ...and when the caller does not retry, the watchdog does: the key no longer
// blocks others for the rest of its lease (18.9 s measured before).
TEST_F(BusyServer, AFailedReleaseIsFinishedInTheBackground) {
  const ClientHandle client = open_client(server().url(), options_with_command_timeout(500));
  const ClientHandle other = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "busy-background");
  const LockHandle wanted = new_lock(other.get(), "busy-background");
  hold_then_fail_the_release(server(), lock.get());
  int held = 1;
  ASSERT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 0) << "a hold being released is no longer the caller's";
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(status_is(dlock_lock_acquire(wanted.get(), 10000, 5000, nullptr), DLOCK_OK));
  EXPECT_LT(monotonic_ms() - started, 5000) << "the 30 s lease ran out instead of a retried release";
  EXPECT_TRUE(status_is(dlock_lock_release(wanted.get()), DLOCK_OK));
}

// The caller's retry after the watchdog finished the release answers as that
// release did, once (a pending request, as a semaphore's release is).
TEST_F(BusyServer, ARetryAfterTheBackgroundFinishedTheReleaseAnswersAsItDid) {
  const ClientHandle client = open_client(server().url(), options_with_command_timeout(500));
  const LockHandle lock = new_lock(client.get(), "busy-retry-late");
  hold_then_fail_the_release(server(), lock.get());
  ASSERT_TRUE(wait_until([&] { return server().command({"EXISTS", "busy-retry-late"}).integer == 0; },
                         std::chrono::seconds(5)))
      << "the watchdog did not finish the release";
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK))
      << "the retry of a release finished meanwhile";
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_NOT_OWNER)) << "released once only";
}

// A pending release that finds the hold gone tells the loss once, from the
// background, and the caller's retry answers DLOCK_E_LOST.
TEST_F(BusyServer, APendingReleaseThatFindsTheHoldGoneTellsTheLossOnce) {
  const ClientHandle client = open_client(server().url(), options_with_command_timeout(500));
  const LockHandle lock = new_lock(client.get(), "busy-gone");
  LostRecorder lost;
  ASSERT_EQ(lost.attach(lock.get()), DLOCK_OK);
  hold_then_fail_the_release(server(), lock.get());
  server().command({"DEL", "busy-gone"});  // before the watchdog's retry, a retry delay (1 s) away
  ASSERT_TRUE(wait_until([&] { return lost.calls() > 0; }, std::chrono::seconds(5)))
      << "the background release found the hold gone and said nothing";
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_LOST)) << dlock_last_error();
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_NOT_OWNER));
  EXPECT_EQ(lost.calls(), 1);
}

class SlowLoadingServer : public RedisFixtureWithConfig {
 protected:
  // With a few hundred thousand keys in its AOF and a delay per key, a
  // restart stays in LOADING for seconds (measured here: 3-4 s).
  SlowLoadingServer()
      : RedisFixtureWithConfig({"appendonly yes", "appendfsync always", "enable-debug-command local",
                                "key-load-delay -4", "loading-process-events-interval-bytes 65536"}) {}
};

// A release sent while the restarted server loads its data is retried until
// loading ends, instead of failing as a protocol error and forgetting the hold.
TEST_F(SlowLoadingServer, AReleaseDuringLoadingWaitsItOut) {
  server().command({"DEBUG", "POPULATE", "300000"});
  server().command({"BGREWRITEAOF"});
  ASSERT_TRUE(wait_until([&] { return server().info_integer("persistence", "aof_rewrite_in_progress") == 0; },
                         std::chrono::seconds(30)));
  dlock_client_options options = default_options();
  options.command_timeout_ms = 20000;
  const ClientHandle client = open_client(server().url(), options);
  const LockHandle lock = new_lock(client.get(), "loading");
  constexpr uint64_t owner = 5;
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock.get(), owner, 0, -1, nullptr, nullptr), DLOCK_OK));

  // The release goes out as soon as the restarted server answers LOADING.
  // (The server is restarted on this thread: a child dies with the thread that
  // started it.)
  std::atomic<bool> saw_loading{false};
  std::future<std::pair<int, std::string>> released = std::async(std::launch::async, [&] {
    const int64_t give_up = monotonic_ms() + 10000;
    while (!saw_loading && monotonic_ms() < give_up) {
      try {
        RedisConnection probe =
            RedisConnection::tcp("127.0.0.1", server().port(), std::chrono::milliseconds(500));
        const RedisReply reply = probe.command({"PING"});
        saw_loading = reply.is_error() && reply.str.rfind("LOADING", 0) == 0;
      } catch (const RedisIoError&) {
        // Not listening yet.
      }
      if (!saw_loading) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const int status = dlock_lock_release_owner(lock.get(), owner);
    return std::make_pair(status, std::string(dlock_last_error()));
  });
  server().restart();  // returns once loading is over
  const auto [status, error] = released.get();
  ASSERT_TRUE(saw_loading) << "the restart never showed LOADING: the test proved nothing";
  EXPECT_TRUE(status_is(status, DLOCK_OK)) << error;
  EXPECT_EQ(server().command({"EXISTS", "loading"}).integer, 0);
}

class TooManyClients : public RedisFixtureWithConfig {
 protected:
  TooManyClients() : RedisFixtureWithConfig({"maxclients 1"}) {}
};

// Redis answers the extra client and closes its socket: the write that
// follows must not kill the process with SIGPIPE.
TEST_F(TooManyClients, IsAConnectionErrorNamingTheReply) {
  RedisConnection only_one = server().connect();
  ASSERT_EQ(only_one.command({"PING"}).str, "PONG");
  dlock_client_options options = default_options();
  options.command_timeout_ms = 300;
  dlock_client* client = nullptr;
  EXPECT_TRUE(status_is(dlock_client_open(server().url().c_str(), &options, &client), DLOCK_E_CONNECTION));
  EXPECT_NE(std::string(dlock_last_error()).find("max number of clients"), std::string::npos)
      << dlock_last_error();
}

class ThreeClientsAtMost : public RedisFixtureWithConfig {
 protected:
  ThreeClientsAtMost() : RedisFixtureWithConfig({"maxclients 3"}) {}
};

// The server accepts the waiter's subscriber connection and drops it at
// once: the subscriber backs off instead of reconnecting in a tight loop.
TEST_F(ThreeClientsAtMost, ASubscriberTurnedAwayBacksOff) {
  server().command({"PING"});  // the test's own connection is the first client
  const ClientHandle holder_client = open_client(server().url());
  const ClientHandle waiter_client = open_client(server().url());
  const LockHandle held = new_lock(holder_client.get(), "crowded");
  const LockHandle wanted = new_lock(waiter_client.get(), "crowded");
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, 2500, nullptr), DLOCK_OK));
  // Redis counts a connection it turns away as rejected, not as received.
  const long long before = server().info_integer("stats", "rejected_connections");
  // The waiter cannot subscribe, so it waits out the holder's lease.
  EXPECT_TRUE(status_is(dlock_lock_acquire(wanted.get(), 5000, -1, nullptr), DLOCK_OK));
  const long long connections = server().info_integer("stats", "rejected_connections") - before;
  EXPECT_LT(connections, 40) << "the subscriber reconnected in a tight loop";
  EXPECT_TRUE(status_is(dlock_lock_release(wanted.get()), DLOCK_OK));
}

class StaleReplica : public RedisFixtureWithConfig {
 protected:
  // A replica of a master that is not there, told not to serve stale data:
  // it answers MASTERDOWN until its master comes back.
  StaleReplica()
      : RedisFixtureWithConfig({"replicaof 127.0.0.1 " + std::to_string(closed_loopback_port()),
                                "replica-serve-stale-data no"}) {}
};

TEST_F(StaleReplica, MasterDownIsRetriedThenAConnectionError) {
  dlock_client_options options = default_options();
  options.command_timeout_ms = 400;
  dlock_client* client = nullptr;
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(status_is(dlock_client_open(server().url().c_str(), &options, &client), DLOCK_E_CONNECTION));
  EXPECT_GE(monotonic_ms() - started, 300) << "not retried";
  EXPECT_NE(std::string(dlock_last_error()).find("MASTERDOWN"), std::string::npos) << dlock_last_error();
}

}  // namespace
}  // namespace dlock_test
