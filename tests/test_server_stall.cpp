// C2: the server stalls for longer than the lease while a watchdog hold is kept
// (DEBUG SLEEP, or CLIENT PAUSE WRITE, which holds back the renewal scripts).
// The holder must learn of the loss by its own validity deadline, before anyone
// else can be granted the lock, and its late release must say so.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "dlock.h"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "safety_checker.hpp"
#include "section_log.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"
#include "watched_holder.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "stalled";
constexpr int64_t kWatchdogMs = 1500;
constexpr int64_t kStallMs = 3000;
// Validity ends a lease after the last renewal was sent, at most kWatchdogMs
// after the stall began; the rest is room for scheduling.
constexpr int64_t kLostWithinMs = 2500;
constexpr uint64_t kRivalOwner = 2;

class ServerStall : public RedisFixture, public ::testing::WithParamInterface<const char*> {
 protected:
  RedisServerConfig server_config() const override {
    RedisServerConfig config;
    config.extra_lines = {"enable-debug-command local"};
    return config;
  }

  // Starts the stall and returns at once; the returned future ends with it.
  std::future<void> stall_server() {
    if (std::string(GetParam()) == "client-pause") {
      const RedisReply paused = server().command({"CLIENT", "PAUSE", std::to_string(kStallMs), "WRITE"});
      if (paused.is_error()) throw std::runtime_error("CLIENT PAUSE: " + paused.str);
      return std::async(std::launch::async, [] { std::this_thread::sleep_for(milliseconds(kStallMs)); });
    }
    // DEBUG SLEEP blocks the connection that sends it, so it gets one of its own.
    auto connection = std::make_shared<RedisConnection>(server().connect());
    return std::async(std::launch::async, [connection] {
      connection->command({"DEBUG", "SLEEP", std::to_string(kStallMs / 1000)});
    });
  }
};

TEST_P(ServerStall, HolderLearnsOfTheLossBeforeAnyoneElseHoldsTheLock) {
  const ClientHandle holder_client = open(kWatchdogMs);
  dlock_client_options patient = default_options();
  patient.command_timeout_ms = 4 * kStallMs;  // the rival's commands wait out the stall
  const ClientHandle rival_client = open_client(server().url(), patient);
  const LockHandle held = new_lock(holder_client.get(), kName);
  const LockHandle rival = new_lock(rival_client.get(), kName);
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(held.get()), DLOCK_OK));

  Section holder;
  ASSERT_TRUE(hold_past_first_renewal(held.get(), lost, kWatchdogMs, holder));

  const int64_t stall_ns = monotonic_ns();
  std::future<void> stall = stall_server();
  auto rival_hold = std::async(std::launch::async, [&] {
    Section section{};
    section.owner = "rival";
    section.release_status =
        dlock_lock_acquire_owner(rival.get(), kRivalOwner, 4 * kStallMs, 20000, nullptr, &section.token);
    section.start_ns = monotonic_ns();
    if (section.release_status != DLOCK_OK) return section;
    std::this_thread::sleep_for(milliseconds(100));
    section.end_ns = monotonic_ns();
    section.release_status = dlock_lock_release_owner(rival.get(), kRivalOwner);
    return section;
  });

  ASSERT_TRUE(wait_until([&] { return lost.calls() > 0; }, milliseconds(kStallMs + 3 * kWatchdogMs)))
      << "the holder never learnt that its lease ran out during the stall";
  holder.end_ns = lost.last_call_ns();
  EXPECT_LT(ms_between(stall_ns, holder.end_ns), kLostWithinMs)
      << "the loss was reported after the validity deadline";
  EXPECT_EQ(lost.last_token(), holder.token);
  stall.get();

  ASSERT_EQ(rival_hold.wait_for(milliseconds(6 * kStallMs)), std::future_status::ready);
  const Section rival_section = rival_hold.get();
  ASSERT_TRUE(status_is(rival_section.release_status, DLOCK_OK))
      << "the rival never held and released the lock";
  EXPECT_GT(rival_section.token, holder.token);
  const SafetyReport report = check_sections({holder, rival_section});
  EXPECT_TRUE(report.clean()) << "two holders at once: " << report.summary();

  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_E_LOST));
  EXPECT_EQ(lost.calls(), 1);
}

INSTANTIATE_TEST_SUITE_P(Stall, ServerStall, ::testing::Values("debug-sleep", "client-pause"),
                         [](const auto& info) {
                           return std::string(info.param) == "client-pause" ? "ClientPause" : "DebugSleep";
                         });

}  // namespace
}  // namespace dlock_test
