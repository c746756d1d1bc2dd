// SPEC 11: the log records a person on call needs, and the client counters.
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "background_acquire.hpp"
#include "dlock.h"
#include "dlock_handles.hpp"
#include "log_capture.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "observed";

class Observability : public RedisFixture {
 protected:
  // A client whose watchdog renews every watchdog_ms / 3, holding kName.
  struct WatchedHold {
    ClientHandle client;
    LockHandle lock;
  };
  WatchedHold hold_with_watchdog(int64_t watchdog_ms) {
    WatchedHold hold{open(watchdog_ms), nullptr};
    hold.lock = new_lock(hold.client.get(), kName);
    require_ok(dlock_lock_acquire(hold.lock.get(), 0, -1, nullptr), "dlock_lock_acquire");
    return hold;
  }
};

TEST_F(Observability, GrantsAndReentriesAreCountedApart) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  constexpr int kGrants = 3;
  constexpr int kReentries = 2;
  for (int grant = 0; grant < kGrants; ++grant) {
    for (int hold = 0; hold <= kReentries; ++hold) {
      ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
    }
    for (int hold = 0; hold <= kReentries; ++hold)
      ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  }
  const dlock_client_stats stats = client_stats(client.get());
  EXPECT_EQ(stats.grants, uint64_t{kGrants});
  EXPECT_EQ(stats.reentries, uint64_t{kGrants * kReentries});
  EXPECT_EQ(stats.waits, 0u);
  EXPECT_EQ(stats.handoffs, 0u);
  EXPECT_EQ(stats.locks_lost, 0u);
  EXPECT_EQ(stats.wait_max_us, 0);
}

TEST_F(Observability, ContendedWaitsAreCountedAsHandoffsWithTheirDurations) {
  const ClientHandle holder = open();
  const ClientHandle waiter = open();
  const LockHandle held = new_lock(holder.get(), kName);
  const LockHandle wanted = new_lock(waiter.get(), kName);
  const std::vector<int> hold_ms{100, 200, 300, 400, 500};
  int64_t longest_measured_us = 0;
  for (const int ms : hold_ms) {
    ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK));
    const int64_t started_ns = monotonic_ns();
    auto outcome = acquire_in_background(wanted.get(), 7, -1);
    std::this_thread::sleep_for(milliseconds(ms));
    ASSERT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
    ASSERT_EQ(outcome.wait_for(milliseconds(5000)), std::future_status::ready);
    const AcquireOutcome granted = outcome.get();
    ASSERT_TRUE(status_is(granted.status, DLOCK_OK));
    longest_measured_us = std::max(longest_measured_us, (granted.returned_ns - started_ns) / 1000);
  }
  const dlock_client_stats stats = client_stats(waiter.get());
  EXPECT_EQ(stats.grants, hold_ms.size());
  EXPECT_EQ(stats.waits, hold_ms.size());
  EXPECT_EQ(stats.handoffs, hold_ms.size()) << "every grant followed a release message";
  EXPECT_LE(stats.wait_p50_us, stats.wait_p99_us);
  EXPECT_LE(stats.wait_p99_us, stats.wait_max_us);
  EXPECT_LE(stats.wait_max_us, longest_measured_us);
  EXPECT_GE(stats.wait_max_us, 500 * 1000 - 20 * 1000) << "the longest wait was about 500 ms";
  // The median wait was about 300 ms; buckets are a quarter octave wide.
  EXPECT_GE(stats.wait_p50_us, 280 * 1000);
  EXPECT_LE(stats.wait_p50_us, 300 * 1000 * 5 / 4 + 50 * 1000);
  const dlock_client_stats holder_stats = client_stats(holder.get());
  EXPECT_EQ(holder_stats.waits, 0u);
  EXPECT_EQ(holder_stats.grants, hold_ms.size());
}

TEST_F(Observability, AnAsynchronousWaitIsCountedLikeABlockingOne) {
  const ClientHandle holder = open();
  const ClientHandle waiter = open();
  const LockHandle held = new_lock(holder.get(), kName);
  const LockHandle wanted = new_lock(waiter.get(), kName);
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK));
  std::promise<int> outcome;
  const auto on_done = [](int status, uint64_t, const char*, void* ctx) {
    static_cast<std::promise<int>*>(ctx)->set_value(status);
  };
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_async(wanted.get(), 7, -1, -1, nullptr, on_done, &outcome), DLOCK_OK));
  std::this_thread::sleep_for(milliseconds(200));
  ASSERT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
  auto granted = outcome.get_future();
  ASSERT_EQ(granted.wait_for(milliseconds(5000)), std::future_status::ready);
  EXPECT_TRUE(status_is(granted.get(), DLOCK_OK));
  const dlock_client_stats stats = client_stats(waiter.get());
  EXPECT_EQ(stats.grants, 1u);
  EXPECT_EQ(stats.waits, 1u);
  EXPECT_EQ(stats.handoffs, 1u);
  EXPECT_GE(stats.wait_max_us, 180 * 1000);
  EXPECT_TRUE(status_is(dlock_lock_release_owner(wanted.get(), 7), DLOCK_OK));
}

TEST_F(Observability, WatchdogRenewalsAreCounted) {
  constexpr int64_t kWatchdogMs = 900;
  const WatchedHold held = hold_with_watchdog(kWatchdogMs);
  EXPECT_EQ(client_stats(held.client.get()).renewals, 0u);
  EXPECT_TRUE(
      wait_until([&] { return client_stats(held.client.get()).renewals >= 2; }, milliseconds(2 * kWatchdogMs)));
  const dlock_client_stats stats = client_stats(held.client.get());
  EXPECT_GE(stats.renewal_round_trips, 2u);
  EXPECT_LE(stats.renewal_round_trips, stats.renewals);
  EXPECT_TRUE(status_is(dlock_lock_release(held.lock.get()), DLOCK_OK));
}

TEST_F(Observability, ALostLockIsCountedAndLoggedWithItsName) {
  const LogCapture log(DLOCK_LOG_WARN);
  constexpr int64_t kWatchdogMs = 900;
  const WatchedHold held = hold_with_watchdog(kWatchdogMs);
  server().command({"DEL", kName});
  EXPECT_TRUE(
      wait_until([&] { return client_stats(held.client.get()).locks_lost == 1; }, milliseconds(2 * kWatchdogMs)));
  EXPECT_TRUE(log.has(DLOCK_LOG_WARN, {"'observed'", "lost after", "renewal"})) << log.dump();
  EXPECT_TRUE(status_is(dlock_lock_release(held.lock.get()), DLOCK_E_LOST));
  EXPECT_EQ(client_stats(held.client.get()).locks_lost, 1u) << "the release did not count the loss again";
}

TEST_F(Observability, AKilledSubscriberIsCountedAsAReconnect) {
  const LogCapture log(DLOCK_LOG_INFO);
  const ClientHandle holder = open();
  const ClientHandle waiter = open();
  const LockHandle held = new_lock(holder.get(), kName);
  const LockHandle wanted = new_lock(waiter.get(), kName);
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK));
  auto outcome = acquire_in_background(wanted.get(), 7, -1);
  ASSERT_TRUE(wait_until(
      [&] {
        return server()
                   .command({"PUBSUB", "NUMSUB", "redisson_lock__channel:{observed}"})
                   .elements.at(1)
                   .integer == 1;
      },
      milliseconds(3000)));
  EXPECT_EQ(client_stats(waiter.get()).reconnects, 0u);
  server().command({"CLIENT", "KILL", "TYPE", "pubsub"});
  EXPECT_TRUE(wait_until([&] { return client_stats(waiter.get()).reconnects == 1; }, milliseconds(3000)));
  EXPECT_TRUE(log.has(DLOCK_LOG_WARN, {"subscriber", "lost the connection"})) << log.dump();
  EXPECT_TRUE(log.has(DLOCK_LOG_INFO, {"subscriber", "reconnected"})) << log.dump();
  ASSERT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
  ASSERT_EQ(outcome.wait_for(milliseconds(5000)), std::future_status::ready);
  EXPECT_TRUE(status_is(outcome.get().status, DLOCK_OK));
}

// A server never reached is not a lost connection.
TEST(ObservabilityWithoutServer, AServerNeverReachedIsNotReportedAsLost) {
  int closed_port = 0;
  {
    RedisServer gone;
    closed_port = gone.port();
  }
  const LogCapture log(DLOCK_LOG_WARN);
  const std::string url = "redis://127.0.0.1:" + std::to_string(closed_port);
  dlock_client* client = nullptr;
  EXPECT_TRUE(status_is(dlock_client_open(url.c_str(), nullptr, &client), DLOCK_E_CONNECTION));
  EXPECT_TRUE(log.has(DLOCK_LOG_WARN, {"cannot connect to " + url})) << log.dump();
  EXPECT_FALSE(log.has(DLOCK_LOG_WARN, {"lost the connection"})) << log.dump();
}

TEST_F(Observability, ARestartUnderAHeldLockLogsWarnings) {
  const LogCapture log(DLOCK_LOG_INFO);
  constexpr int64_t kWatchdogMs = 1000;
  const WatchedHold held = hold_with_watchdog(kWatchdogMs);
  server().kill9();
  std::this_thread::sleep_for(milliseconds(kWatchdogMs / 2));
  server().restart();
  // Without persistence the lock is gone: the next renewal finds it so. (The
  // loss is counted before it is logged: wait for the record itself.)
  EXPECT_TRUE(
      wait_until([&] { return client_stats(held.client.get()).locks_lost == 1; }, milliseconds(3 * kWatchdogMs)));
  EXPECT_TRUE(wait_until([&] { return log.has(DLOCK_LOG_WARN, {"'observed'", "lost after"}); },
                         milliseconds(3 * kWatchdogMs)))
      << log.dump();
  EXPECT_TRUE(log.has(DLOCK_LOG_WARN, {"lost the connection to " + server().url()})) << log.dump();
  EXPECT_TRUE(log.has(DLOCK_LOG_INFO, {"connected to " + server().url() + " again"})) << log.dump();
  EXPECT_GE(client_stats(held.client.get()).reconnects, 1u);
  EXPECT_TRUE(status_is(dlock_lock_release(held.lock.get()), DLOCK_E_LOST));
}

class BusyServer : public Observability {
 protected:
  RedisServerConfig server_config() const override { return {.extra_lines = {"busy-reply-threshold 100"}}; }
};

TEST_F(BusyServer, TransientStatesAreRetriedCountedAndLoggedAtDebug) {
  const LogCapture log(DLOCK_LOG_DEBUG);
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  std::thread busy([&] {
    try {
      server().connect().command({"EVAL", "while true do end", "0"});
    } catch (const std::exception&) {
      // Killed by SCRIPT KILL below: its error reply or a timeout, either will do.
    }
  });
  std::this_thread::sleep_for(milliseconds(300));
  auto outcome = acquire_in_background(lock.get(), 7, 0);
  std::this_thread::sleep_for(milliseconds(300));
  server().command({"SCRIPT", "KILL"});
  busy.join();
  ASSERT_EQ(outcome.wait_for(milliseconds(5000)), std::future_status::ready);
  EXPECT_TRUE(status_is(outcome.get().status, DLOCK_OK));
  EXPECT_GE(client_stats(client.get()).transient_retries, 1u);
  EXPECT_TRUE(log.has(DLOCK_LOG_DEBUG, {"BUSY", "retrying"})) << log.dump();
}

class EvictingServer : public Observability {
 protected:
  RedisServerConfig server_config() const override {
    return {.extra_lines = {"maxmemory 100mb", "maxmemory-policy allkeys-lru",
                            "user locker on >pw ~* &* +@all -config",
                            "user blind on >pw ~* &* +@all -config -info"}};
  }
};

TEST_F(EvictingServer, TheEvictionPolicyIsWarnedAboutAtOpen) {
  const LogCapture log(DLOCK_LOG_WARN);
  const ClientHandle client = open();
  EXPECT_TRUE(log.has(DLOCK_LOG_WARN, {"maxmemory-policy allkeys-lru", "noeviction"})) << log.dump();
}

TEST_F(EvictingServer, AClientDeniedConfigReadsThePolicyFromInfo) {
  const LogCapture log(DLOCK_LOG_WARN);
  const ClientHandle client = open_client("redis://locker:pw@127.0.0.1:" + std::to_string(server().port()));
  EXPECT_TRUE(log.has(DLOCK_LOG_WARN, {"maxmemory-policy allkeys-lru"})) << log.dump();
}

TEST_F(EvictingServer, APolicyThatCannotBeReadIsLoggedAtDebugOnly) {
  const LogCapture log(DLOCK_LOG_DEBUG);
  const ClientHandle client = open_client("redis://blind:pw@127.0.0.1:" + std::to_string(server().port()));
  EXPECT_TRUE(log.has(DLOCK_LOG_DEBUG, {"cannot read maxmemory-policy"})) << log.dump();
  for (const LogRecord& record : log.records()) EXPECT_EQ(record.level, DLOCK_LOG_DEBUG) << record.message;
}

TEST_F(Observability, ANoEvictionServerGetsNoWarning) {
  const LogCapture log(DLOCK_LOG_WARN);
  const ClientHandle client = open();
  EXPECT_TRUE(log.records().empty()) << log.dump();
}

const char* const kPassword = "s3cret-Pa55word";

class PasswordServer : public Observability {
 protected:
  RedisServerConfig server_config() const override {
    RedisServerConfig config;
    config.extra_lines = {std::string("requirepass ") + kPassword};
    config.admin_password = kPassword;
    return config;
  }
};

TEST_F(PasswordServer, NoRecordContainsThePassword) {
  const LogCapture log(DLOCK_LOG_DEBUG);
  const std::string url =
      "redis://:" + std::string(kPassword) + "@127.0.0.1:" + std::to_string(server().port());
  const ClientHandle client = open_client(url, options_with_watchdog(900));
  const ClientHandle rival = open_client(url);
  const LockHandle lock = new_lock(client.get(), kName);
  const LockHandle contended = new_lock(rival.get(), kName);
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  auto outcome = acquire_in_background(contended.get(), 7, -1);
  std::this_thread::sleep_for(milliseconds(200));
  server().command({"CLIENT", "KILL", "TYPE", "normal"});
  server().command({"CLIENT", "KILL", "TYPE", "pubsub"});
  server().kill9();
  std::this_thread::sleep_for(milliseconds(300));
  server().restart();
  ASSERT_EQ(outcome.wait_for(milliseconds(10000)), std::future_status::ready);
  EXPECT_TRUE(status_is(outcome.get().status, DLOCK_OK));
  EXPECT_TRUE(wait_until([&] { return client_stats(client.get()).locks_lost == 1; }, milliseconds(3000)));
  dlock_client* refused = nullptr;
  EXPECT_TRUE(status_is(dlock_client_open(("redis://:wrong-" + std::string(kPassword) +
                                           "@127.0.0.1:" + std::to_string(server().port()))
                                              .c_str(),
                                          nullptr, &refused),
                        DLOCK_E_AUTH));

  const std::vector<LogRecord> records = log.records();
  EXPECT_GE(records.size(), 4u) << log.dump();
  for (const LogRecord& record : records) {
    EXPECT_EQ(record.message.find(kPassword), std::string::npos) << record.message;
  }
}

TEST(ObservabilityInput, BadArgumentsAreRefused) {
  dlock_client_stats stats{};
  stats.size = sizeof stats;
  EXPECT_TRUE(invalid_naming(dlock_client_stats_get(nullptr, &stats), "client"));
  EXPECT_TRUE(invalid_naming(dlock_set_log_handler([](int, const char*, void*) {}, nullptr, 0), "min_level"));
  EXPECT_TRUE(invalid_naming(dlock_set_log_handler([](int, const char*, void*) {}, nullptr, 5), "min_level"));
  EXPECT_TRUE(status_is(dlock_set_log_handler(nullptr, nullptr, 0), DLOCK_OK)) << "NULL turns logging off";
}

TEST_F(Observability, StatsNeedAnOutputLargeEnoughForTheFirstCounter) {
  const ClientHandle client = open();
  EXPECT_TRUE(invalid_naming(dlock_client_stats_get(client.get(), nullptr), "out"));
  dlock_client_stats stats{};
  EXPECT_TRUE(invalid_naming(dlock_client_stats_get(client.get(), &stats), "size"));
  stats.size = sizeof(size_t);
  EXPECT_TRUE(invalid_naming(dlock_client_stats_get(client.get(), &stats), "size"));
}

TEST_F(Observability, AnOlderCallerGetsOnlyTheFieldsItKnows) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  dlock_client_stats stats{};
  stats.size = offsetof(dlock_client_stats, reentries);
  stats.reentries = 12345;
  ASSERT_TRUE(status_is(dlock_client_stats_get(client.get(), &stats), DLOCK_OK));
  EXPECT_EQ(stats.size, offsetof(dlock_client_stats, reentries));
  EXPECT_EQ(stats.grants, 1u);
  EXPECT_EQ(stats.reentries, 12345u) << "a field past the caller's size was written";
}

}  // namespace
}  // namespace dlock_test
