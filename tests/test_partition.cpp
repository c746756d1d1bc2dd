// B4: the network between a holder and Redis is cut for twice the lease (a TCP
// proxy that stops forwarding, connections kept open), then healed. The holder
// learns of the loss by its validity deadline, another client gets the lock once
// the server expires it, and the old holder, back online, touches nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <thread>

#include "dlock.h"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "safety_checker.hpp"
#include "section_log.hpp"
#include "status_assertions.hpp"
#include "tcp_proxy.hpp"
#include "wait_until.hpp"
#include "watched_holder.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "partitioned";
constexpr int64_t kWatchdogMs = 1500;
constexpr int64_t kPartitionMs = 2 * kWatchdogMs;
constexpr int64_t kRivalLeaseMs = 20000;
constexpr uint64_t kRivalOwner = 2;

class Partition : public RedisFixture {};

TEST_F(Partition, CutOffHolderLosesTheLockAndNeverResurrectsIt) {
  TcpProxy proxy(server().port());
  dlock_client_options holder_options = options_with_watchdog(kWatchdogMs);
  holder_options.command_timeout_ms = 3000;
  const ClientHandle holder_client = open_client(proxy.url(), holder_options);
  const ClientHandle rival_client = open();
  const LockHandle held = new_lock(holder_client.get(), kName);
  const LockHandle rival = new_lock(rival_client.get(), kName);
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(held.get()), DLOCK_OK));

  Section holder;
  ASSERT_TRUE(hold_past_first_renewal(held.get(), lost, kWatchdogMs, holder));

  const int64_t partition_ns = monotonic_ns();
  proxy.partition();
  Section taker{};
  taker.owner = "rival";
  auto taken = std::async(std::launch::async, [&] {
    const int status = dlock_lock_acquire_owner(rival.get(), kRivalOwner, kPartitionMs, kRivalLeaseMs,
                                                nullptr, &taker.token);
    taker.start_ns = monotonic_ns();
    return status;
  });

  ASSERT_TRUE(wait_until([&] { return lost.calls() > 0; }, milliseconds(kPartitionMs)))
      << "the holder never learnt it lost the lock while cut off";
  holder.end_ns = lost.last_call_ns();
  EXPECT_LT(ms_between(partition_ns, holder.end_ns), kWatchdogMs + 1000)
      << "the loss was reported later than a lease after the last renewal";

  ASSERT_EQ(taken.wait_for(milliseconds(kPartitionMs)), std::future_status::ready);
  ASSERT_TRUE(status_is(taken.get(), DLOCK_OK))
      << "nobody got the lock after the cut-off holder's lease ran out";
  EXPECT_GE(ms_between(partition_ns, taker.start_ns), kWatchdogMs / 3)
      << "granted while the holder's last renewal was still valid";
  EXPECT_GT(taker.token, holder.token);

  std::this_thread::sleep_for(
      milliseconds(std::max<int64_t>(0, kPartitionMs - ms_between(partition_ns, monotonic_ns()))));
  proxy.heal();
  const auto fields = hash_fields(server(), kName);
  const long long remaining = pttl(server(), kName);
  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_E_LOST));
  // Give renewals held back by the partition, if any, a lease to arrive.
  std::this_thread::sleep_for(milliseconds(kWatchdogMs));
  EXPECT_EQ(hash_fields(server(), kName), fields) << "the old holder changed the new holder's lock";
  const long long later = pttl(server(), kName);
  EXPECT_LE(later, remaining) << "the old holder extended the new holder's lease";
  EXPECT_GT(later, remaining - kWatchdogMs - 500) << "the old holder cut the new holder's lease short";
  EXPECT_EQ(lost.calls(), 1);

  taker.end_ns = monotonic_ns();
  taker.release_status = dlock_lock_release_owner(rival.get(), kRivalOwner);
  EXPECT_TRUE(status_is(taker.release_status, DLOCK_OK));
  const SafetyReport report = check_sections({holder, taker});
  EXPECT_TRUE(report.clean()) << "two holders at once: " << report.summary();
}

}  // namespace
}  // namespace dlock_test
