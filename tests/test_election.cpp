// Leader election: one leader at a time with a term that only grows, a
// resign that hands over at once, a crashed or paused leader replaced within
// its lease, loss told to the leader, observers that see every leader in
// order, and bad input refused. Across processes, the safety checker judges
// the leaders' sections on the fenced store.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "async_completion.hpp"
#include "dlock.h"
#include "dlock_handles.hpp"
#include "fenced_store.hpp"
#include "monotonic_clock.hpp"
#include "observed_leaders.hpp"
#include "redis_fixture.hpp"
#include "safety_checker.hpp"
#include "section_log.hpp"
#include "status_assertions.hpp"
#include "temp_dir.hpp"
#include "wait_until.hpp"
#include "worker_launcher.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "scheduler";
const char* const kLockKey = "dlock_election:{scheduler}";
constexpr int64_t kWatchdogMs = 1000;

// A candidate for kName, or for `name`.
using dlock_test::new_election;
ElectionHandle new_election(dlock_client* client) {
  return new_election(client, kName);
}

class Election : public RedisFixture {};

TEST_F(Election, OneLeaderAtATimeWhoseTermEveryClientReads) {
  const ClientHandle first_client = open();
  const ClientHandle second_client = open();
  const ElectionHandle first = new_election(first_client.get());
  const ElectionHandle second = new_election(second_client.get());

  EXPECT_FALSE(leader_of(second.get()).has_value()) << "nobody has campaigned yet";
  uint64_t term = 0;
  EXPECT_TRUE(status_is(dlock_election_campaign(first.get(), "host-a:1", 0, &term), DLOCK_OK));
  EXPECT_GT(term, 0u);
  uint64_t again = 0;
  EXPECT_TRUE(status_is(dlock_election_campaign(first.get(), "ignored", 0, &again), DLOCK_OK));
  EXPECT_EQ(again, term) << "a leader that campaigns again keeps its term";
  EXPECT_TRUE(status_is(dlock_election_campaign(second.get(), "host-b:2", 0, nullptr), DLOCK_NOT_ACQUIRED));

  const std::optional<dlock_leader> seen = leader_of(second.get());
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->term, term);
  EXPECT_EQ(std::string(seen->value), "host-a:1");
  EXPECT_GT(seen->since_ms, 1700000000000);
  int leads = 0;
  EXPECT_TRUE(status_is(dlock_election_is_leader(first.get(), &leads), DLOCK_OK));
  EXPECT_EQ(leads, 1);
  EXPECT_TRUE(status_is(dlock_election_is_leader(second.get(), &leads), DLOCK_OK));
  EXPECT_EQ(leads, 0);
  uint64_t own_term = 0;
  EXPECT_TRUE(status_is(dlock_election_term(first.get(), &own_term), DLOCK_OK));
  EXPECT_EQ(own_term, term);
  EXPECT_TRUE(status_is(dlock_election_term(second.get(), &own_term), DLOCK_E_NOT_OWNER));
  EXPECT_TRUE(status_is(dlock_election_resign(second.get()), DLOCK_E_NOT_OWNER)) << "a follower resigns nothing";
  EXPECT_TRUE(leader_of(first.get()).has_value()) << "the follower's resign left the leader alone";
}

TEST_F(Election, AResignHandsOverToAWaitingCandidateAtOnce) {
  const ClientHandle first_client = open();
  const ClientHandle second_client = open();
  const ElectionHandle first = new_election(first_client.get());
  const ElectionHandle second = new_election(second_client.get());
  uint64_t first_term = 0;
  require_ok(dlock_election_campaign(first.get(), "a", 0, &first_term), "first campaign");

  std::atomic<int64_t> granted_ns{0};
  uint64_t second_term = 0;
  std::thread waiter([&] {
    EXPECT_TRUE(status_is(dlock_election_campaign(second.get(), "b", 30000, &second_term), DLOCK_OK));
    granted_ns = monotonic_ns();
  });
  std::this_thread::sleep_for(milliseconds(300));  // the waiter is asleep on the channel
  EXPECT_EQ(granted_ns.load(), 0);
  const int64_t resigned_ns = monotonic_ns();
  EXPECT_TRUE(status_is(dlock_election_resign(first.get()), DLOCK_OK));
  waiter.join();
  EXPECT_LT(granted_ns - resigned_ns, 500 * 1000000LL) << "a resign wakes the next candidate, no lease waited";
  EXPECT_GT(second_term, first_term);
  const std::optional<dlock_leader> now = leader_of(first.get());
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(std::string(now->value), "b");
  EXPECT_TRUE(status_is(dlock_election_resign(first.get()), DLOCK_E_NOT_OWNER)) << "resigned once already";
}

TEST_F(Election, ProclaimChangesTheValueNotTheTerm) {
  const ClientHandle client = open();
  const ElectionHandle leader = new_election(client.get());
  const ElectionHandle follower = new_election(client.get());
  uint64_t term = 0;
  require_ok(dlock_election_campaign(leader.get(), "starting", 0, &term), "campaign");
  EXPECT_TRUE(status_is(dlock_election_proclaim(leader.get(), "serving on :8080"), DLOCK_OK));
  const std::optional<dlock_leader> seen = leader_of(follower.get());
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->term, term);
  EXPECT_EQ(std::string(seen->value), "serving on :8080");
  EXPECT_TRUE(status_is(dlock_election_proclaim(follower.get(), "usurper"), DLOCK_E_NOT_OWNER));
  EXPECT_EQ(std::string(leader_of(follower.get())->value), "serving on :8080");
}

TEST_F(Election, AnObserverSeesEveryLeaderInOrderOnce) {
  const ClientHandle observer_client = open();
  const ClientHandle candidates_client = open();
  const ElectionHandle watched = new_election(observer_client.get());
  const ElectionHandle first = new_election(candidates_client.get());
  uint64_t term = 0;
  require_ok(dlock_election_campaign(first.get(), "c0", 0, &term), "first campaign");

  ObservedLeaders observed;
  require_ok(dlock_election_observe(watched.get(), ObservedLeaders::on_leader, &observed), "observe");
  ASSERT_TRUE(wait_until([&] { return observed.count() == 1; }, milliseconds(5000)))
      << "the leader at the start comes first";
  std::vector<std::pair<uint64_t, std::string>> expected{{term, "c0"}};
  require_ok(dlock_election_resign(first.get()), "resign");

  std::vector<ElectionHandle> candidates;
  for (int i = 0; i < 4; ++i) candidates.push_back(new_election(candidates_client.get()));
  for (int round = 1; round <= 20; ++round) {
    dlock_election* candidate = candidates[round % 4].get();
    const std::string value = "c" + std::to_string(round);
    require_ok(dlock_election_campaign(candidate, value.c_str(), 5000, &term), "campaign");
    expected.emplace_back(term, value);
    if (round % 5 == 0) {
      require_ok(dlock_election_proclaim(candidate, (value + "+").c_str()), "proclaim");
      expected.emplace_back(term, value + "+");
    }
    require_ok(dlock_election_resign(candidate), "resign");
  }
  ASSERT_TRUE(wait_until([&] { return observed.count() >= expected.size(); }, milliseconds(5000)));
  std::this_thread::sleep_for(milliseconds(200));  // a duplicate would arrive meanwhile
  EXPECT_EQ(observed.seen(), expected);
  require_ok(dlock_election_observe(watched.get(), nullptr, nullptr), "stop observing");
}

TEST_F(Election, AnObserverGoesOnAcrossAServerRestart) {
  const ClientHandle observer_client = open();
  const ElectionHandle watched = new_election(observer_client.get());
  ObservedLeaders observed;
  require_ok(dlock_election_observe(watched.get(), ObservedLeaders::on_leader, &observed), "observe");
  {
    const ClientHandle client = open();
    const ElectionHandle candidate = new_election(client.get());
    require_ok(dlock_election_campaign(candidate.get(), "before", 0, nullptr), "campaign");
    ASSERT_TRUE(wait_until([&] { return observed.count() == 1; }, milliseconds(5000)));
    require_ok(dlock_election_resign(candidate.get()), "resign");
  }
  server().kill9();
  server().restart();
  const ClientHandle client = open();
  const ElectionHandle candidate = new_election(client.get());
  uint64_t term = 0;
  require_ok(dlock_election_campaign(candidate.get(), "after", 0, &term), "campaign after the restart");
  ASSERT_TRUE(wait_until([&] { return observed.count() == 2; }, milliseconds(10000)))
      << "the observer reconnects and reads on";
  EXPECT_EQ(observed.seen().back(), std::make_pair(term, std::string("after")));
}

TEST_F(Election, ALostLeadershipIsToldAndEndsTheTerm) {
  const ClientHandle client = open(kWatchdogMs);
  const ElectionHandle leader = new_election(client.get());
  std::atomic<uint64_t> lost_term{0};
  require_ok(dlock_election_set_lost_callback(
                 leader.get(),
                 [](const char* name, uint64_t, uint64_t term, void* ctx) {
                   EXPECT_STREQ(name, kName);
                   static_cast<std::atomic<uint64_t>*>(ctx)->store(term);
                 },
                 &lost_term),
             "set_lost_callback");
  uint64_t term = 0;
  require_ok(dlock_election_campaign(leader.get(), "a", 0, &term), "campaign");
  server().command({"DEL", kLockKey});  // as a lease lapsed on the server
  ASSERT_TRUE(wait_until([&] { return lost_term.load() != 0; }, milliseconds(3 * kWatchdogMs)));
  EXPECT_EQ(lost_term.load(), term);
  int leads = 1;
  EXPECT_TRUE(status_is(dlock_election_is_leader(leader.get(), &leads), DLOCK_OK));
  EXPECT_EQ(leads, 0);
  EXPECT_TRUE(status_is(dlock_election_proclaim(leader.get(), "still me?"), DLOCK_E_LOST));
  uint64_t next = 0;
  EXPECT_TRUE(status_is(dlock_election_campaign(leader.get(), "a again", 0, &next), DLOCK_OK))
      << "a candidate that lost campaigns afresh";
  EXPECT_GT(next, term);
}

TEST_F(Election, AnAsyncCampaignWaitsWithoutAThreadAndCanBeCancelled) {
  const ClientHandle client = open();
  const ElectionHandle leader = new_election(client.get());
  const ElectionHandle waiting = new_election(client.get());
  const ElectionHandle cancelled = new_election(client.get());
  uint64_t term = 0;
  require_ok(dlock_election_campaign(leader.get(), "a", 0, &term), "campaign");

  Completion granted;
  Completion interrupted;
  const CancelHandle cancel = new_cancel();
  require_ok(dlock_election_campaign_async(waiting.get(), "b", -1, nullptr, Completion::on_done, &granted),
             "campaign_async");
  require_ok(dlock_election_campaign_async(cancelled.get(), "c", -1, cancel.get(), Completion::on_done,
                                           &interrupted),
             "campaign_async with a cancel");
  std::this_thread::sleep_for(milliseconds(200));
  require_ok(dlock_cancel_trigger(cancel.get()), "cancel");
  auto interrupted_outcome = interrupted.future();
  ASSERT_EQ(interrupted_outcome.wait_for(milliseconds(5000)), std::future_status::ready);
  EXPECT_EQ(interrupted_outcome.get().status, DLOCK_E_INTERRUPTED);
  require_ok(dlock_election_resign(leader.get()), "resign");
  auto granted_outcome = granted.future();
  ASSERT_EQ(granted_outcome.wait_for(milliseconds(5000)), std::future_status::ready);
  const Outcome outcome = granted_outcome.get();
  EXPECT_EQ(outcome.status, DLOCK_OK);
  EXPECT_GT(outcome.token, term) << "the async campaign's token is its term";
  EXPECT_EQ(std::string(leader_of(leader.get())->value), "b");
}

TEST_F(Election, BadInputIsRefusedNamingTheArgument) {
  const ClientHandle client = open();
  dlock_election* out = nullptr;
  EXPECT_TRUE(status_is(dlock_election_new(nullptr, kName, &out), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_election_new(client.get(), nullptr, &out), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_election_new(client.get(), "", &out), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_election_new(client.get(), "{x}", &out), DLOCK_E_INVALID)) << "only a hash tag";
  EXPECT_TRUE(status_is(dlock_election_new(client.get(), std::string(1020, 'n').c_str(), &out), DLOCK_E_INVALID));
  EXPECT_NE(std::string(dlock_last_error()).find("name"), std::string::npos);
  EXPECT_EQ(out, nullptr);

  const ElectionHandle election = new_election(client.get());
  const std::string long_value(DLOCK_ELECTION_VALUE_MAX + 1, 'v');
  EXPECT_TRUE(status_is(dlock_election_campaign(election.get(), long_value.c_str(), 0, nullptr), DLOCK_E_INVALID));
  EXPECT_NE(std::string(dlock_last_error()).find("value"), std::string::npos);
  EXPECT_TRUE(status_is(dlock_election_campaign(election.get(), "v", -2, nullptr), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_election_campaign(nullptr, "v", 0, nullptr), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_election_leader(election.get(), nullptr), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_election_campaign_async(election.get(), "v", 0, nullptr, nullptr, nullptr), DLOCK_E_INVALID));
  EXPECT_FALSE(leader_of(election.get()).has_value()) << "nothing was campaigned by the refused calls";
  EXPECT_TRUE(status_is(dlock_election_campaign(election.get(), "", 0, nullptr), DLOCK_OK)) << "an empty value is a value";
  const std::string longest(DLOCK_ELECTION_VALUE_MAX, 'v');
  EXPECT_TRUE(status_is(dlock_election_proclaim(election.get(), longest.c_str()), DLOCK_OK));
  EXPECT_EQ(leader_of(election.get())->value_len, longest.size());
  dlock_election_free(nullptr);
}

// Five candidates in five processes, each leading in turn: the checker finds
// no two leaders' sections overlapping and terms rising in grant order.
class ElectionAcrossProcesses : public RedisFixture {
 protected:
  std::unique_ptr<ChildProcess> start_candidate(int index, int cycles, int64_t section_us) {
    const std::string length = std::to_string(section_us);
    return start_worker({"--mode", "election", "--url", server().url(), "--name", kName, "--store",
                         dir_.file("store"), "--log", dir_.file("sections"), "--cycles", std::to_string(cycles),
                         "--min-sleep-us", length, "--max-sleep-us", length, "--watchdog-timeout-ms",
                         std::to_string(kWatchdogMs), "--announce", "1"},
                        dir_.file("out" + std::to_string(index)));
  }
  // The pid in a worker's value, "<pid>.<thread>".
  static pid_t leader_pid(const dlock_leader& leader) { return static_cast<pid_t>(std::stol(leader.value)); }

  TempDir dir_;
};

TEST_F(ElectionAcrossProcesses, NoTwoLeadersAndTermsRise) {
  std::vector<std::unique_ptr<ChildProcess>> candidates;
  for (int i = 0; i < 5; ++i) candidates.push_back(start_candidate(i, 40, 2000));
  for (auto& candidate : candidates) EXPECT_EQ(candidate->wait_for(milliseconds(60000)), 0);
  const SafetyReport report = check_sections(SectionLog::read(dir_.file("sections")));
  EXPECT_EQ(report.sections, 200u);
  EXPECT_TRUE(report.clean()) << report.summary();
  EXPECT_EQ(FencedStore(dir_.file("store")).state().value, 200) << "every leader's write kept";
}

TEST_F(ElectionAcrossProcesses, AKilledOrPausedLeaderIsReplacedWithinItsLease) {
  const ClientHandle client = open();
  const ElectionHandle watched = new_election(client.get());
  std::vector<std::unique_ptr<ChildProcess>> candidates;
  for (int i = 0; i < 5; ++i) candidates.push_back(start_candidate(i, 1000, 1500 * 1000));
  ASSERT_TRUE(wait_until([&] { return leader_of(watched.get()).has_value(); }, milliseconds(10000)));
  auto candidate_of = [&](pid_t pid) -> ChildProcess& {
    for (auto& candidate : candidates) {
      if (candidate->pid() == pid) return *candidate;
    }
    throw std::runtime_error("no candidate has pid " + std::to_string(pid));
  };
  auto index_of = [&](const ChildProcess& process) {
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (candidates[i].get() == &process) return i;
    }
    throw std::runtime_error("not a candidate");
  };
  // Waits for a leader of another term than `term`; how long it took.
  auto next_leader = [&](uint64_t term, dlock_leader* next) {
    const int64_t from = monotonic_ns();
    const bool replaced = wait_until(
        [&] {
          const std::optional<dlock_leader> now = leader_of(watched.get());
          if (!now || now->term == term) return false;
          *next = *now;
          return true;
        },
        milliseconds(10000));
    EXPECT_TRUE(replaced);
    return milliseconds((monotonic_ns() - from) / 1000000);
  };

  dlock_leader killed = *leader_of(watched.get());
  candidate_of(leader_pid(killed)).kill_and_reap();
  dlock_leader after_kill{};
  EXPECT_LE(next_leader(killed.term, &after_kill), milliseconds(kWatchdogMs + 1000 + 1000))
      << "crash to new leader: within the lease plus a second (and a margin for the host)";
  EXPECT_GT(after_kill.term, killed.term);

  // Paused inside its section: once it has said so (its section's start is
  // stamped after the campaign returns).
  ChildProcess& paused = candidate_of(leader_pid(after_kill));
  const std::string output = dir_.file("out" + std::to_string(index_of(paused)));
  ASSERT_TRUE(wait_for_output(output, "term " + std::to_string(after_kill.term), milliseconds(10000)));
  paused.signal(SIGSTOP);
  dlock_leader after_pause{};
  EXPECT_LE(next_leader(after_kill.term, &after_pause), milliseconds(kWatchdogMs + 1000 + 1000));
  EXPECT_GT(after_pause.term, after_kill.term);
  // Resumed once the store has seen a later leader's term, the paused one
  // goes on as a follower: its late write carries its old term.
  ASSERT_TRUE(wait_until([&] { return FencedStore(dir_.file("store")).state().highest_token > after_kill.term; },
                         milliseconds(10000)));
  paused.signal(SIGCONT);
  ASSERT_TRUE(wait_until([&] { return FencedStore(dir_.file("store")).state().stale_rejections == 1; },
                         milliseconds(10000)))
      << "the paused leader's late write is refused by its term";
  for (auto& candidate : candidates) candidate->kill_and_reap();
  const SafetyReport report = check_sections(SectionLog::read(dir_.file("sections")));
  EXPECT_EQ(report.overlaps, report.fenced_overlaps) << report.summary();
  EXPECT_EQ(report.token_order_violations, 0u) << report.summary();
}

}  // namespace
}  // namespace dlock_test
