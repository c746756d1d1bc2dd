// Leader election on zookeeper:// through the C ABI, in the layout of
// Curator's LeaderSelector, against a real ZooKeeper server the suite starts
// on a loopback port: the leader is the first lock node at the election's
// path, its data the leader's value, its creation zxid the term. Then against
// Curator's LeaderSelector itself (tests/interop/curator/CuratorLeaderLoop.java),
// each side leading in turn and reading the other's leader.
#include <dlock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "support/child_process.hpp"
#include "support/dlock_handles.hpp"
#include "support/fenced_store.hpp"
#include "support/monotonic_clock.hpp"
#include "support/observed_leaders.hpp"
#include "support/safety_checker.hpp"
#include "support/section_log.hpp"
#include "support/status_assertions.hpp"
#include "support/temp_dir.hpp"
#include "support/text_file.hpp"
#include "support/wait_until.hpp"
#include "support/worker_launcher.hpp"
#include "support/zk_one_node_suite.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

class ZkElection : public ZkOneNodeSuite {
 protected:
  static std::string url(const std::string& suffix = "") { return "zookeeper://" + hosts() + suffix; }
};

TEST_F(ZkElection, TheLeaderIsLeaderSelectorsFirstNodeItsValueTheDataItsTermTheCzxid) {
  const ClientHandle first_client = open_client(url());
  const ClientHandle second_client = open_client(url());
  const ElectionHandle first = new_election(first_client.get(), "scheduler");
  const ElectionHandle second = new_election(second_client.get(), "scheduler");
  EXPECT_FALSE(leader_of(second.get()).has_value()) << "nobody has campaigned yet";

  uint64_t term = 0;
  require_ok(dlock_election_campaign(first.get(), "host-a:1", 0, &term), "campaign");
  const std::vector<std::string> nodes = children("/dlock_election/scheduler");
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_NE(nodes[0].find("-lock-"), std::string::npos) << nodes[0] << ": InterProcessMutex's node name";
  const dlock::zk::DataResult node = dlock::zk::get(observer(), "/dlock_election/scheduler/" + nodes[0]);
  EXPECT_EQ(node.data, "host-a:1");
  EXPECT_EQ(static_cast<uint64_t>(node.stat.czxid), term);
  EXPECT_TRUE(status_is(dlock_election_campaign(second.get(), "host-b:2", 0, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_TRUE(wait_until([&] { return children("/dlock_election/scheduler").size() == 1; }, milliseconds(2000)))
      << "the refused campaign's node was not withdrawn";

  std::optional<dlock_leader> seen = leader_of(second.get());
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->term, term);
  EXPECT_EQ(leader_value(*seen), "host-a:1");
  EXPECT_EQ(seen->since_ms, node.stat.ctime);
  int leads = 0;
  require_ok(dlock_election_is_leader(first.get(), &leads), "is_leader");
  EXPECT_EQ(leads, 1);

  require_ok(dlock_election_proclaim(first.get(), "serving on :8080"), "proclaim");
  seen = leader_of(second.get());
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->term, term) << "proclaim changes the value, not the term";
  EXPECT_EQ(leader_value(*seen), "serving on :8080");
  EXPECT_TRUE(status_is(dlock_election_proclaim(second.get(), "usurper"), DLOCK_E_NOT_OWNER));

  std::atomic<uint64_t> second_term{0};
  std::thread waiter([&] {
    uint64_t granted = 0;
    EXPECT_TRUE(status_is(dlock_election_campaign(second.get(), "host-b:2", 10000, &granted), DLOCK_OK));
    second_term = granted;
  });
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_EQ(second_term.load(), 0u) << "led while the first still led";
  require_ok(dlock_election_resign(first.get()), "resign");
  waiter.join();
  EXPECT_GT(second_term.load(), term);
  seen = leader_of(first.get());
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(leader_value(*seen), "host-b:2");
  EXPECT_EQ(seen->term, second_term.load());
}

TEST_F(ZkElection, ANameThatIsAPathIsUsedAsCuratorTakesItAndABadOneIsRefused) {
  const ClientHandle client = open_client(url());
  const ElectionHandle election = new_election(client.get(), "/services/report/leader");
  require_ok(dlock_election_campaign(election.get(), "me", 0, nullptr), "campaign");
  EXPECT_EQ(children("/services/report/leader").size(), 1u);
  require_ok(dlock_election_resign(election.get()), "resign");
  EXPECT_TRUE(children("/services/report/leader").empty());

  dlock_election* refused = nullptr;
  EXPECT_TRUE(status_is(dlock_election_new(client.get(), "/bad//path", &refused), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_election_new(client.get(), "", &refused), DLOCK_E_INVALID));
  EXPECT_EQ(refused, nullptr);
}

TEST_F(ZkElection, AnObserverSeesEveryLeaderAndValueInOrderOnce) {
  const ClientHandle observer_client = open_client(url());
  const ClientHandle candidates_client = open_client(url());
  const ElectionHandle watched = new_election(observer_client.get(), "observed");
  std::vector<ElectionHandle> candidates;
  for (int i = 0; i < 4; ++i) candidates.push_back(new_election(candidates_client.get(), "observed"));
  uint64_t term = 0;
  require_ok(dlock_election_campaign(candidates[0].get(), "c0", 0, &term), "first campaign");

  ObservedLeaders observed;
  require_ok(dlock_election_observe(watched.get(), ObservedLeaders::on_leader, &observed), "observe");
  ASSERT_TRUE(wait_until([&] { return observed.count() == 1; }, milliseconds(5000)))
      << "the leader at the start comes first";
  std::vector<std::pair<uint64_t, std::string>> expected{{term, "c0"}};
  require_ok(dlock_election_resign(candidates[0].get()), "resign");
  for (int round = 1; round <= 12; ++round) {
    dlock_election* candidate = candidates[round % 4].get();
    const std::string value = "c" + std::to_string(round);
    require_ok(dlock_election_campaign(candidate, value.c_str(), 5000, &term), "campaign");
    expected.emplace_back(term, value);
    // Each leader is seen before the next: watches fire once per change, and
    // a follower reads the state it finds, not every step it missed.
    ASSERT_TRUE(wait_until([&] { return observed.count() == expected.size(); }, milliseconds(5000)));
    if (round % 3 == 0) {
      require_ok(dlock_election_proclaim(candidate, (value + "+").c_str()), "proclaim");
      expected.emplace_back(term, value + "+");
      ASSERT_TRUE(wait_until([&] { return observed.count() == expected.size(); }, milliseconds(5000)));
    }
    require_ok(dlock_election_resign(candidate), "resign");
  }
  std::this_thread::sleep_for(milliseconds(200));  // a duplicate would arrive meanwhile
  EXPECT_EQ(observed.seen(), expected);
  require_ok(dlock_election_observe(watched.get(), nullptr, nullptr), "stop observing");
}

TEST_F(ZkElection, ALeaderWhoseNodeIsDeletedIsToldAndCampaignsAfresh) {
  const ClientHandle client = open_client(url());
  const ElectionHandle leader = new_election(client.get(), "deleted");
  std::atomic<uint64_t> lost_term{0};
  require_ok(dlock_election_set_lost_callback(
                 leader.get(),
                 [](const char* name, uint64_t, uint64_t term, void* ctx) {
                   EXPECT_STREQ(name, "deleted");
                   static_cast<std::atomic<uint64_t>*>(ctx)->store(term);
                 },
                 &lost_term),
             "set_lost_callback");
  uint64_t term = 0;
  require_ok(dlock_election_campaign(leader.get(), "a", 0, &term), "campaign");
  const std::vector<std::string> nodes = children("/dlock_election/deleted");
  ASSERT_EQ(nodes.size(), 1u);
  ASSERT_EQ(dlock::zk::remove(observer(), "/dlock_election/deleted/" + nodes[0]), ZOK);  // an operator's delete
  ASSERT_TRUE(wait_until([&] { return lost_term.load() != 0; }, milliseconds(10000)));
  EXPECT_EQ(lost_term.load(), term);
  int leads = 1;
  require_ok(dlock_election_is_leader(leader.get(), &leads), "is_leader");
  EXPECT_EQ(leads, 0);
  EXPECT_TRUE(status_is(dlock_election_proclaim(leader.get(), "still me?"), DLOCK_E_LOST));
  uint64_t next = 0;
  EXPECT_TRUE(status_is(dlock_election_campaign(leader.get(), "a again", 0, &next), DLOCK_OK));
  EXPECT_GT(next, term);
}

// Candidates in processes of their own (tests/worker --mode election), each
// leading in turn, one of them killed while it leads: the checker finds no two
// leaders' sections overlapping and terms rising in grant order.
TEST_F(ZkElection, CandidatesInProcessesNeverLeadTogetherAndAKilledLeaderIsReplaced) {
  TempDir dir;
  const std::string candidates_url = url("?session_timeout_ms=1000");
  auto start_candidate = [&](int index, int cycles, int64_t section_us) {
    const std::string length = std::to_string(section_us);
    return start_worker({"--mode", "election", "--url", candidates_url, "--name", "fleet", "--store",
                         dir.file("store"), "--log", dir.file("sections"), "--cycles", std::to_string(cycles),
                         "--min-sleep-us", length, "--max-sleep-us", length, "--announce", "1"},
                        dir.file("out" + std::to_string(index)));
  };
  std::vector<std::unique_ptr<ChildProcess>> candidates;
  for (int i = 0; i < 3; ++i) candidates.push_back(start_candidate(i, 20, 2000));
  for (auto& candidate : candidates) EXPECT_EQ(candidate->wait_for(milliseconds(60000)), 0);
  const SafetyReport report = check_sections(SectionLog::read(dir.file("sections")));
  EXPECT_EQ(report.sections, 60u);
  EXPECT_TRUE(report.clean()) << report.summary();

  // A leader that holds for long, killed: its session ends, the next leads.
  const ClientHandle client = open_client(url());
  const ElectionHandle watched = new_election(client.get(), "fleet");
  std::unique_ptr<ChildProcess> killed = start_candidate(3, 1, 60 * 1000 * 1000);
  ASSERT_TRUE(wait_until([&] { return leader_of(watched.get()).has_value(); }, milliseconds(10000)));
  const uint64_t killed_term = leader_of(watched.get())->term;
  killed->kill_and_reap();
  uint64_t term = 0;
  const int64_t killed_ns = monotonic_ns();
  require_ok(dlock_election_campaign(watched.get(), "next", 10000, &term), "campaign after the kill");
  EXPECT_LT(monotonic_ns() - killed_ns, 5000 * 1000000LL) << "led within the killed one's session timeout";
  EXPECT_GT(term, killed_term);
}

// Curator's LeaderSelector (a JVM) and dlock's candidates on one path. Needs
// Curator's jars (tests/interop/curator/fetch-curator.sh, DLOCK_TEST_CURATOR_CLASSPATH).
class ZkElectionCurator : public ZkElection {
 protected:
  void SetUp() override {
    const char* classpath = std::getenv("DLOCK_TEST_CURATOR_CLASSPATH");
    if (classpath == nullptr || *classpath == '\0') {
      GTEST_SKIP() << "no Curator: tests/interop/curator/fetch-curator.sh DIR, then configure with "
                      "-DDLOCK_TEST_CURATOR_CLASSPATH='DIR/*'";
    }
    classpath_ = classpath;
  }
  // Starts CuratorLeaderLoop.java with `arguments` after the path; waits until it is connected.
  std::unique_ptr<ChildProcess> start_curator(const std::string& path, std::vector<std::string> arguments,
                                              const std::string& out) {
    std::vector<std::string> command{"java", "-cp", classpath_, DLOCK_CURATOR_LEADER_LOOP, hosts(), path};
    command.insert(command.end(), arguments.begin(), arguments.end());
    auto curator = std::make_unique<ChildProcess>(command, out);
    EXPECT_TRUE(wait_until([&] { return read_text_file(out).find("ready") != std::string::npos; },
                           milliseconds(30000)))
        << read_text_file(out);
    return curator;
  }
  static void expect_done(ChildProcess& curator, const std::string& out) {
    const std::optional<int> status = curator.wait_for(milliseconds(60000));
    ASSERT_TRUE(status.has_value()) << "Curator's loop did not end";
    EXPECT_EQ(describe_wait_status(*status), describe_wait_status(0)) << read_text_file(out);
  }

  TempDir dir_;

 private:
  std::string classpath_;
};

TEST_F(ZkElectionCurator, LeaderSelectorAndDlockCandidatesNeverLeadTogether) {
  constexpr int curator_cycles = 15;
  constexpr int dlock_threads = 2;
  constexpr int dlock_cycles = 15;
  const std::string path = "/interop/leader";
  const std::string sections_path = dir_.file("sections");
  const std::string out = dir_.file("curator.out");
  std::unique_ptr<ChildProcess> curator =
      start_curator(path, {"lead", "curator", std::to_string(curator_cycles), "5", sections_path}, out);
  std::atomic<int> failures{0};
  {
    SectionLog log(sections_path);
    std::vector<std::thread> threads;
    for (int t = 0; t < dlock_threads; ++t) {
      threads.emplace_back([&, t] {
        const ClientHandle client = open_client(url());
        const ElectionHandle election = new_election(client.get(), path);
        const std::string value = "dlock" + std::to_string(t);
        for (int i = 0; i < dlock_cycles; ++i) {
          Section section;
          if (dlock_election_campaign(election.get(), value.c_str(), 20000, &section.token) != DLOCK_OK) {
            ++failures;
            return;
          }
          section.owner = value;
          section.start_ns = monotonic_ns();
          std::this_thread::sleep_for(milliseconds(5));
          section.end_ns = monotonic_ns();
          log.append(section);
          section.release_status = dlock_election_resign(election.get());
          if (section.release_status != DLOCK_OK) ++failures;
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
  }
  expect_done(*curator, out);
  ASSERT_EQ(failures.load(), 0);
  const std::vector<Section> sections = SectionLog::read(sections_path);
  const SafetyReport report = check_sections(sections);
  EXPECT_EQ(report.sections, static_cast<std::size_t>(curator_cycles + dlock_threads * dlock_cycles));
  EXPECT_TRUE(report.clean()) << report.summary();
  const Handoffs handoffs = count_handoffs(sections, "curator");
  EXPECT_GE(handoffs.from_owner, 1) << "never passed from Curator to dlock";
  EXPECT_GE(handoffs.to_owner, 1) << "never passed from dlock to Curator";
}

TEST_F(ZkElectionCurator, EachSideReadsTheOthersLeaderAndValue) {
  const std::string path = "/interop/read-leader";
  const ClientHandle client = open_client(url());
  const ElectionHandle election = new_election(client.get(), path);

  // Curator leads: dlock reads its participant id as the value, its node's czxid as the term.
  const std::string sections_path = dir_.file("sections");
  const std::string lead_out = dir_.file("lead.out");
  std::unique_ptr<ChildProcess> curator =
      start_curator(path, {"lead", "curator-7", "1", "3000", sections_path}, lead_out);
  ASSERT_TRUE(wait_until([&] { return leader_of(election.get()).has_value(); }, milliseconds(10000)));
  const dlock_leader curator_leader = *leader_of(election.get());
  EXPECT_EQ(leader_value(curator_leader), "curator-7");
  expect_done(*curator, lead_out);
  const std::vector<Section> curator_terms = SectionLog::read(sections_path);
  ASSERT_EQ(curator_terms.size(), 1u);
  EXPECT_EQ(curator_terms[0].token, curator_leader.term);

  // dlock leads: Curator's getLeader() names dlock's value.
  uint64_t term = 0;
  require_ok(dlock_election_campaign(election.get(), "dlock-9", 5000, &term), "campaign");
  EXPECT_GT(term, curator_leader.term);
  const std::string watch_out = dir_.file("watch.out");
  std::unique_ptr<ChildProcess> watcher = start_curator(path, {"watch", "2000"}, watch_out);
  expect_done(*watcher, watch_out);
  EXPECT_NE(read_text_file(watch_out).find("leader dlock-9\n"), std::string::npos) << read_text_file(watch_out);
  require_ok(dlock_election_resign(election.get()), "resign");
}

}  // namespace
}  // namespace dlock_test
