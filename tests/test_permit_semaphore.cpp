// The leased-permit semaphore (Redisson RPermitExpirableSemaphore layout):
// ids and leases, the watchdog, reclaiming a crashed or paused holder's
// permit, loss reported, and a multi-process check that no more than N
// permits are ever held at once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include "cancel_check.hpp"
#include "dlock.h"
#include "monotonic_clock.hpp"
#include "permit_checker.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "section_log.hpp"
#include "semaphore_handles.hpp"
#include "status_assertions.hpp"
#include "temp_dir.hpp"
#include "wait_until.hpp"
#include "worker_launcher.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "pool";
const char* const kTimeouts = "{pool}:timeout";
constexpr int64_t kLeaseMs = 1000;

class PermitTest : public RedisFixture {
 protected:
  void set_permits(dlock_permit_semaphore* semaphore, int permits) {
    int set = 0;
    require_ok(dlock_permit_semaphore_try_set_permits(semaphore, permits, &set), "try_set_permits");
  }
  int64_t available(dlock_permit_semaphore* semaphore) {
    int64_t out = -1;
    require_ok(dlock_permit_semaphore_available_permits(semaphore, &out), "available_permits");
    return out;
  }
  // The epoch ms the permit's lease ends, as the timeout ZSET holds it (raw id bytes).
  long long lease_end(const std::string& id) {
    std::string raw;
    for (std::size_t i = 0; i < id.size(); i += 2)
      raw.push_back(static_cast<char>(std::stoi(id.substr(i, 2), nullptr, 16)));
    const RedisReply score = server().command({"ZSCORE", kTimeouts, raw});
    return score.type == RedisReply::Type::nil ? -1 : std::stoll(score.str);
  }
  long long server_ms() {
    const RedisReply time = server().command({"TIME"});
    return std::stoll(time.elements[0].str) * 1000 + std::stoll(time.elements[1].str) / 1000;
  }

  std::unique_ptr<ChildProcess> start_holder(int64_t hold_ms) {
    return start_worker({"--mode", "permit-hold", "--url", server().url(), "--name", kName, "--permits", "1",
                         "--lease-ms", "-1", "--watchdog-timeout-ms", std::to_string(kLeaseMs), "--hold-ms",
                         std::to_string(hold_ms), "--log", sections_path()},
                        holder_output());
  }
  std::string sections_path() const { return dir_.file("sections"); }
  std::string holder_report(const std::string& key) {
    return wait_for_output(holder_output(), key, milliseconds(10000)).value_or("<nothing>");
  }
  std::string holder_output() const { return dir_.file("holder.out"); }

  TempDir dir_;
};

TEST_F(PermitTest, PermitsHaveIdsAndLeasesInRedissonsLayout) {
  const ClientHandle client = open();
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  set_permits(semaphore.get(), 2);
  char first[DLOCK_PERMIT_ID_SIZE];
  char second[DLOCK_PERMIT_ID_SIZE];
  require_ok(dlock_permit_semaphore_acquire(semaphore.get(), 0, 5000, nullptr, first, sizeof first),
             "acquire");
  require_ok(dlock_permit_semaphore_acquire(semaphore.get(), 0, -1, nullptr, second, sizeof second),
             "acquire");
  EXPECT_EQ(std::string(first).size(), 32u);
  EXPECT_NE(std::string(first), std::string(second));
  EXPECT_EQ(string_value(server(), kName), "0");
  const long long now = server_ms();
  EXPECT_NEAR(lease_end(first) - now, 5000, 200);
  EXPECT_GT(lease_end(second), now) << "a watchdog permit has a lease that ends";
  char third[DLOCK_PERMIT_ID_SIZE];
  EXPECT_TRUE(status_is(dlock_permit_semaphore_acquire(semaphore.get(), 0, -1, nullptr, third, sizeof third),
                        DLOCK_NOT_ACQUIRED));
  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(semaphore.get(), first), DLOCK_OK));
  EXPECT_EQ(lease_end(first), -1);
  EXPECT_EQ(available(semaphore.get()), 1);
  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(semaphore.get(), first), DLOCK_E_NOT_OWNER));
  int released = -1;
  require_ok(dlock_permit_semaphore_try_release(semaphore.get(), first, &released), "try_release");
  EXPECT_EQ(released, 0);
  require_ok(dlock_permit_semaphore_try_release(semaphore.get(), second, &released), "try_release");
  EXPECT_EQ(released, 1);
  EXPECT_EQ(available(semaphore.get()), 2);
}

TEST_F(PermitTest, TheWatchdogKeepsAPermitPastItsLease) {
  const ClientHandle client = open(kLeaseMs);
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  set_permits(semaphore.get(), 1);
  char id[DLOCK_PERMIT_ID_SIZE];
  require_ok(dlock_permit_semaphore_acquire(semaphore.get(), 0, -1, nullptr, id, sizeof id), "acquire");
  const ClientHandle other = open();
  const PermitSemaphoreHandle contender = new_permit_semaphore(other.get(), kName);
  char theirs[DLOCK_PERMIT_ID_SIZE];
  EXPECT_TRUE(status_is(
      dlock_permit_semaphore_acquire(contender.get(), 3 * kLeaseMs, -1, nullptr, theirs, sizeof theirs),
      DLOCK_NOT_ACQUIRED))
      << "the permit was reclaimed while its holder's watchdog renewed it";
  EXPECT_GT(lease_end(id), server_ms());
  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(semaphore.get(), id), DLOCK_OK));
}

TEST_F(PermitTest, AnExpiredLeaseReturnsThePermitAndTheHolderHearsOfIt) {
  const ClientHandle client = open();
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  PermitLostRecorder lost;
  lost.attach(semaphore.get());
  set_permits(semaphore.get(), 1);
  char id[DLOCK_PERMIT_ID_SIZE];
  require_ok(dlock_permit_semaphore_acquire(semaphore.get(), 0, 500, nullptr, id, sizeof id), "acquire");
  const ClientHandle other = open();
  const PermitSemaphoreHandle contender = new_permit_semaphore(other.get(), kName);
  char theirs[DLOCK_PERMIT_ID_SIZE];
  const int64_t start = monotonic_ns();
  // Nobody publishes when a lease ends: the waiter wakes at the lease's end.
  EXPECT_TRUE(status_is(
      dlock_permit_semaphore_acquire(contender.get(), 5000, -1, nullptr, theirs, sizeof theirs), DLOCK_OK));
  const int64_t waited_ms = (monotonic_ns() - start) / 1000000;
  EXPECT_GE(waited_ms, 400);
  EXPECT_LT(waited_ms, 1200);
  EXPECT_TRUE(wait_until([&] { return lost.calls() == 1; }, milliseconds(2000)));
  EXPECT_EQ(lost.last_id(), std::string(id));
  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(semaphore.get(), id), DLOCK_E_LOST));
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_EQ(lost.calls(), 1) << "the loss was reported more than once";
  EXPECT_GT(lease_end(theirs), 0) << "the late release touched the new holder's permit";
}

TEST_F(PermitTest, CancelInterruptsAWaitPromptly) {
  const ClientHandle client = open();
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  EXPECT_TRUE(cancel_ends_wait_promptly([&](dlock_cancel* cancel) {
    char id[DLOCK_PERMIT_ID_SIZE];
    return dlock_permit_semaphore_acquire(semaphore.get(), -1, -1, cancel, id, sizeof id);
  }));
}

TEST_F(PermitTest, BadInputIsRefusedNamingTheArgument) {
  const ClientHandle client = open();
  dlock_permit_semaphore* raw = nullptr;
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_new(nullptr, kName, &raw), "client"));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_new(client.get(), "", &raw), "name"));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_new(client.get(), "a}b", &raw), "name"));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_new(client.get(), kName, nullptr), "out"));
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  char id[DLOCK_PERMIT_ID_SIZE];
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_acquire(semaphore.get(), 0, 0, nullptr, id, sizeof id),
                             "lease_ms"));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_acquire(semaphore.get(), 0, -7, nullptr, id, sizeof id),
                             "lease_ms"));
  EXPECT_TRUE(invalid_naming(
      dlock_permit_semaphore_acquire(semaphore.get(), 0, DLOCK_DURATION_MAX_MS + 1, nullptr, id, sizeof id),
      "lease_ms"));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_acquire(semaphore.get(), -2, -1, nullptr, id, sizeof id),
                             "wait_ms"));
  EXPECT_TRUE(
      invalid_naming(dlock_permit_semaphore_acquire(semaphore.get(), 0, -1, nullptr, nullptr, 33), "id_out"));
  EXPECT_TRUE(
      invalid_naming(dlock_permit_semaphore_acquire(semaphore.get(), 0, -1, nullptr, id, 10), "id_size"));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_release(semaphore.get(), nullptr), "permit_id"));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_release(semaphore.get(), "abc"), "permit_id"));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_release(semaphore.get(), std::string(32, 'g').c_str()),
                             "permit_id"));
  int released = 0;
  EXPECT_TRUE(
      invalid_naming(dlock_permit_semaphore_try_release(semaphore.get(), "zz", &released), "permit_id"));
  EXPECT_TRUE(
      invalid_naming(dlock_permit_semaphore_try_set_permits(semaphore.get(), -1, &released), "permits"));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_available_permits(nullptr, nullptr), "out"));
  dlock_permit_semaphore_free(nullptr);
  EXPECT_FALSE(key_exists(server(), kName));
}

// N permits, several processes of several threads: never more than N
// sections open at once, and every permit back at the end.
TEST_F(PermitTest, NoMoreThanNPermitsAreHeldAcrossProcesses) {
  constexpr int kPermits = 3;
  const std::string log = dir_.file("sections");
  std::vector<std::unique_ptr<ChildProcess>> workers;
  for (int i = 0; i < 4; ++i) {
    workers.push_back(start_worker(
        {"--mode", "permits", "--url", server().url(), "--name", kName, "--permits", std::to_string(kPermits),
         "--threads", "2", "--cycles", "25", "--log", log, "--min-sleep-us", "500", "--max-sleep-us", "3000"},
        dir_.file("worker" + std::to_string(i) + ".out")));
  }
  for (auto& worker : workers) {
    const auto status = worker->wait_for(milliseconds(40000));
    ASSERT_TRUE(status.has_value()) << "a worker did not finish";
    EXPECT_EQ(*status, 0) << describe_wait_status(*status);
  }
  const std::vector<Section> sections = SectionLog::read(log);
  EXPECT_EQ(sections.size(), 4u * 2 * 25);
  const int most = max_concurrent_sections(sections);
  EXPECT_LE(most, kPermits) << "more holders than permits at once";
  EXPECT_GE(most, 2) << "the permits were never held concurrently: the run proves nothing";
  const ClientHandle client = open();
  EXPECT_EQ(available(new_permit_semaphore(client.get(), kName).get()), kPermits);
}

// The checker itself: it flags N + 1 overlapping sections.
TEST(PermitChecker, FlagsMoreSectionsThanPermits) {
  std::vector<Section> sections(3);
  sections[0].start_ns = 0, sections[0].end_ns = 100;
  sections[1].start_ns = 50, sections[1].end_ns = 150;
  sections[2].start_ns = 100, sections[2].end_ns = 200;  // starts as the first ends
  EXPECT_EQ(max_concurrent_sections(sections), 2);
  sections[2].start_ns = 99;
  EXPECT_EQ(max_concurrent_sections(sections), 3);
}

TEST_F(PermitTest, AKilledHoldersPermitReturnsWithinItsLease) {
  const auto holder = start_holder(60000);
  ASSERT_NE(holder_report("acquired"), "<nothing>");
  const ClientHandle client = open();
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  holder->kill_and_reap();
  const int64_t killed_ns = monotonic_ns();
  char id[DLOCK_PERMIT_ID_SIZE];
  EXPECT_TRUE(status_is(dlock_permit_semaphore_acquire(semaphore.get(), 10000, -1, nullptr, id, sizeof id),
                        DLOCK_OK));
  const int64_t waited_ms = (monotonic_ns() - killed_ns) / 1000000;
  EXPECT_LT(waited_ms, kLeaseMs + 300) << "the dead holder's permit stayed taken past its lease";
  // Granted just before the kill, so most of its lease was left (loosely: the
  // holder's report reaches the test late on a loaded machine).
  EXPECT_GE(waited_ms, kLeaseMs / 3) << "granted while the dead holder's lease still ran";
}

// The holder is stopped past its lease: its permit returns to the pool, the
// next taker gets it, and the paused holder's release reports the loss once.
TEST_F(PermitTest, APausedHoldersPermitReturnsAndItsReleaseReportsTheLoss) {
  const auto holder = start_holder(500);
  const std::string held = holder_report("acquired");
  ASSERT_NE(held, "<nothing>");
  holder->signal(SIGSTOP);
  const ClientHandle client = open();
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  char id[DLOCK_PERMIT_ID_SIZE];
  Section mine;
  EXPECT_TRUE(status_is(
      dlock_permit_semaphore_acquire(semaphore.get(), 3 * kLeaseMs, -1, nullptr, id, sizeof id), DLOCK_OK))
      << "the paused holder's permit never returned";
  mine.start_ns = monotonic_ns();
  EXPECT_EQ(lease_end(held), -1) << "the expired permit is still in the timeout set";
  holder->signal(SIGCONT);
  EXPECT_EQ(holder_report("release"), std::to_string(DLOCK_E_LOST));
  EXPECT_EQ(holder_report("lost_callbacks"), "1");
  EXPECT_GT(lease_end(id), 0) << "the paused holder's release touched our permit";
  mine.end_ns = monotonic_ns();
  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(semaphore.get(), id), DLOCK_OK));

  // The canary: the paused holder believed it held the one permit while we
  // did, and the checker sees it; only its release's DLOCK_E_LOST told it.
  ASSERT_TRUE(holder->wait_for(milliseconds(10000)).has_value());
  std::vector<Section> sections = SectionLog::read(sections_path());
  ASSERT_EQ(sections.size(), 1u);
  sections.push_back(mine);
  EXPECT_EQ(max_concurrent_sections(sections), 2) << "the checker missed the paused holder's overlap";
  sections.erase(sections.begin());  // the holder's, which its release reported lost
  EXPECT_EQ(max_concurrent_sections(sections), 1);
}

}  // namespace
}  // namespace dlock_test
