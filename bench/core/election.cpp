// Section 12: leader election against the recipe users write today, a lock
// used as an election: each candidate blocks in dlock_lock_acquire(lock, -1,
// -1) on a plain lock (the watchdog's lease) and the leader resigns with
// dlock_lock_release. Three candidate processes, each with a client of its
// own:
//   - resign -> the next candidate's campaign (acquire) returns, in the
//     hand-off harness of section 3 (handoff_harness.hpp), ABBA;
//   - kill -9 of the leader just after a renewal -> another candidate's
//     campaign returns, with a 1 s lease (stamped in a shared mapping);
//   - reading who leads (dlock_election_leader) from a follower;
//   - an observer's delay after each grant of the first figure.
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/redis/election_ops/election_keys.hpp"
#include "borrowed.hpp"
#include "handoff_harness.hpp"
#include "percentile.hpp"
#include "sections.hpp"
#include "server_counters.hpp"
#include "server_link.hpp"

namespace dlock_bench {
namespace {

using dlock_test::ElectionHandle;
using dlock_test::new_election;

constexpr int candidates = 3;
constexpr int32_t grants_per_run = 110;  // two runs of each: about 200 hand-overs
constexpr int64_t crash_lease_ms = 1000;
constexpr int crash_repetitions = 5;
constexpr useconds_t followers_settle_us = 300000;  // the followers blocked in their campaign
constexpr int64_t crash_deadline_ns = 20000000000;
constexpr int leader_reads = 1000;
const char* const election_name = "bench:election";
const char* const lock_name = "bench:election-lock";

class ElectionContender : public Contender {
 public:
  ElectionContender(const std::string& url, const std::string& name, const dlock_client_options& options,
                    std::string value)
      : client_(open_client(url, options)),
        election_(new_election(client_.get(), name)),
        value_(std::move(value)) {}
  uint64_t acquire() override {
    uint64_t term = 0;
    require_ok(dlock_election_campaign(election_.get(), value_.c_str(), -1, &term),
               "dlock_election_campaign");
    return term;
  }
  void release() override { require_ok(dlock_election_resign(election_.get()), "dlock_election_resign"); }

 private:
  ClientHandle client_;
  ElectionHandle election_;
  std::string value_;
};

// A candidate of the election `name`, or of the lock recipe on the lock `name`.
ContenderFactory candidate(const BenchContext& context, bool election, const std::string& name,
                           const dlock_client_options& options) {
  return [url = context.url, election, name, options](int worker) -> std::unique_ptr<Contender> {
    if (election) {
      return std::make_unique<ElectionContender>(url, name, options, "candidate-" + std::to_string(worker));
    }
    return std::make_unique<LockContender>(url, name, options);
  };
}

// When an observer was first told of each term (CLOCK_MONOTONIC).
class Observed {
 public:
  static void on_leader(const dlock_leader* leader, void* ctx) {
    const int64_t now_ns = monotonic_ns();
    auto* self = static_cast<Observed*>(ctx);
    const std::lock_guard<std::mutex> guard(self->mutex_);
    self->told_ns_.emplace(leader->term, now_ns);
  }
  std::map<uint64_t, int64_t> told_ns() {
    const std::lock_guard<std::mutex> guard(mutex_);
    return told_ns_;
  }

 private:
  std::mutex mutex_;
  std::map<uint64_t, int64_t> told_ns_;
};

// An observer in this process, on a client of its own, from once the
// candidates are forked (a fork with its threads running is avoided) until
// it has been told of the last grant.
class Observer {
 public:
  explicit Observer(const BenchContext& context) : context_(context) {}
  void start() {
    client_ = open_client(context_.url);
    election_ = new_election(client_.get(), election_name);
    require_ok(dlock_election_observe(election_.get(), Observed::on_leader, &observed_),
               "dlock_election_observe");
  }
  std::map<uint64_t, int64_t> stop(uint64_t last_term) {
    const int64_t deadline_ns = monotonic_ns() + 1000000000;
    while (observed_.told_ns().count(last_term) == 0 && monotonic_ns() < deadline_ns) usleep(1000);
    require_ok(dlock_election_observe(election_.get(), nullptr, nullptr), "dlock_election_observe(NULL)");
    election_.reset();
    client_.reset();
    return observed_.told_ns();
  }

 private:
  const BenchContext& context_;
  Observed observed_;  // outlives the observer's thread, stopped with election_
  ClientHandle client_;
  ElectionHandle election_;
};

struct Handovers {
  std::vector<std::vector<Grant>> runs;  // kept for the analysis's pointers
  HandoffAnalysis analysis;
  std::vector<int64_t> observer_ns;        // the campaign returns -> the observer is told of its term
  std::vector<int64_t> resign_to_told_ns;  // the resign begins -> the observer is told of the next term
};

void run_handovers(const BenchContext& context, bool election, Handovers& into) {
  Observer observer(context);
  const std::string name = election ? election_name : lock_name;
  std::vector<Grant> grants =
      run_handoffs({candidates, grants_per_run, candidate(context, election, name, default_options()),
                    election ? "election" : "lock recipe", [&] {
                      if (election) observer.start();
                    }});
  into.runs.push_back(std::move(grants));
  const std::vector<Grant>& run = into.runs.back();
  const std::size_t first = into.analysis.taken.size();
  into.analysis.add(run);
  if (!election) return;
  const std::map<uint64_t, int64_t> told = observer.stop(run.back().token);
  for (std::size_t i = first; i < into.analysis.taken.size(); ++i) {
    const auto found = told.find(into.analysis.taken[i]->token);
    if (found == told.end()) continue;
    into.observer_ns.push_back(found->second - into.analysis.taken[i]->granted_ns);
    into.resign_to_told_ns.push_back(into.observer_ns.back() + into.analysis.handoff_ns[i]);
  }
}

// Shared by the parent and the candidates of one crash (an anonymous shared mapping).
struct CrashBoard {
  std::atomic<int> ready;
  std::atomic<int> go;
  std::atomic<int32_t> grants;   // campaigns that returned
  std::atomic<int32_t> stamped;  // of which stamped below
  int64_t granted_ns[candidates];
  int worker[candidates];
};

struct Crash {
  int64_t new_leader_ns;  // the kill -> another candidate's campaign returns
  int64_t lease_left_ns;  // the leadership's PTTL just before the kill
};

int64_t lease_left_ms(RedisConnection& link, const std::string& key) {
  return checked(link, {"PTTL", key}).integer;
}

// Waits until `done` or the deadline; whether `done`.
template <typename Done>
bool wait_for(Done done, int64_t deadline_ns) {
  while (!done()) {
    if (monotonic_ns() > deadline_ns) return false;
    usleep(500);
  }
  return true;
}

// One crash: three candidates of a fresh name with a 1 s lease; once one leads
// and the others are blocked in their campaign, the leader is killed just
// after its watchdog renewed the lease, so that the whole lease runs out.
Crash crash_once(const BenchContext& context, bool election, int repetition) {
  const std::string name =
      std::string(election ? election_name : lock_name) + ":crash:" + std::to_string(repetition);
  const std::string key = election ? dlock::ElectionKeys(name).lock : name;
  void* shared = mmap(nullptr, sizeof(CrashBoard), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) throw std::runtime_error("mmap of the crash board failed");
  CrashBoard& board = *new (shared) CrashBoard{};
  const ContenderFactory make = candidate(context, election, name, options_with_watchdog(crash_lease_ms));
  const std::string what = election ? "election crash" : "lock recipe crash";
  std::vector<pid_t> pids;
  for (int worker = 0; worker < candidates; ++worker) {
    pids.push_back(fork_worker(
        [&, worker] {
          const std::unique_ptr<Contender> contender = make(worker);
          board.ready.fetch_add(1);
          while (board.go.load() == 0) usleep(100);
          contender->acquire();
          const int64_t granted_ns = monotonic_ns();
          const int32_t index = board.grants.fetch_add(1);
          board.granted_ns[index] = granted_ns;
          board.worker[index] = worker;
          board.stamped.fetch_add(1);
          for (;;) pause();  // leads until killed
          return 0;
        },
        what));
  }
  RedisConnection link = connect(context.server);
  const int64_t deadline_ns = monotonic_ns() + crash_deadline_ns;
  bool measured = wait_for([&] { return board.ready.load() == candidates; }, deadline_ns);
  board.go.store(1);
  measured = measured && wait_for([&] { return board.stamped.load() >= 1; }, deadline_ns);
  Crash crash{0, 0};
  if (measured) {
    usleep(followers_settle_us);
    // A renewal sets the PTTL back up to the lease.
    int64_t previous_ms = lease_left_ms(link, key);
    int64_t left_ms = previous_ms;
    measured = wait_for(
        [&] {
          left_ms = lease_left_ms(link, key);
          const bool renewed = left_ms > previous_ms;
          previous_ms = left_ms;
          return renewed;
        },
        deadline_ns);
    const int64_t killed_ns = monotonic_ns();
    kill(pids[board.worker[0]], SIGKILL);
    measured = measured && wait_for([&] { return board.stamped.load() >= 2; }, deadline_ns);
    crash = Crash{board.granted_ns[1] - killed_ns, left_ms * 1000000};
  }
  for (const pid_t pid : pids) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  munmap(shared, sizeof(CrashBoard));
  if (!measured) throw std::runtime_error(what + ": no new leader within the deadline");
  return crash;
}

struct LeaderReads {
  std::vector<int64_t> ns;  // each call
  ServerCounters server;    // over them all
};

// A follower's dlock_election_leader() while another client leads.
LeaderReads read_leaders(const BenchContext& context) {
  const std::string name = std::string(election_name) + ":read";
  const ClientHandle leader_client = open_client(context.url);
  const ElectionHandle leader = new_election(leader_client.get(), name);
  require_ok(dlock_election_campaign(leader.get(), "the leader's address", 0, nullptr),
             "dlock_election_campaign");
  const ClientHandle follower_client = open_client(context.url);
  const ElectionHandle follower = new_election(follower_client.get(), name);
  RedisConnection link = connect(context.server);
  TrafficMeter meter(link);
  LeaderReads reads;
  meter.start();
  for (int i = 0; i < leader_reads; ++i) {
    dlock_leader who{};
    const int64_t asked_ns = monotonic_ns();
    require_ok(dlock_election_leader(follower.get(), &who), "dlock_election_leader");
    reads.ns.push_back(monotonic_ns() - asked_ns);
  }
  reads.server = meter.stop();
  require_ok(dlock_election_resign(leader.get()), "dlock_election_resign");
  return reads;
}

std::string ratio(int64_t ours, int64_t theirs) {
  return fixed(static_cast<double>(ours) / static_cast<double>(theirs), 2) + " x lock";
}

// "21.3 us = 3.6 RT after", "... before".
std::string after_or_before(const BenchContext& context, int64_t ns) {
  return duration_in_round_trips(context, ns < 0 ? -ns : ns) + (ns < 0 ? " before" : " after");
}

std::string milliseconds(int64_t ns) {
  return fixed(static_cast<double>(ns) / 1e6, 0) + " ms";
}

}  // namespace

void bench_election(const BenchContext& context) {
  context.report.section(
      "12. Leader election vs the lock recipe (candidates blocked in dlock_lock_acquire(-1, -1), the "
      "leader resigning with dlock_lock_release), " +
      std::to_string(candidates) + " candidate processes");
  Handovers election;
  Handovers lock;
  for (const bool run_election : {true, false, false, true}) {
    run_handovers(context, run_election, run_election ? election : lock);
  }
  if (election.analysis.handoff_ns.empty() || lock.analysis.handoff_ns.empty()) {
    throw std::runtime_error("no hand-over to measure");
  }
  for (const double p : {50.0, 99.0}) {
    const int64_t ours = percentile(election.analysis.handoff_ns, p);
    const int64_t theirs = percentile(lock.analysis.handoff_ns, p);
    context.report.row({"resign -> new leader p" + fixed(p, 0), duration_in_round_trips(context, ours),
                        duration_in_round_trips(context, theirs) + " lock", ratio(ours, theirs), "",
                        Verdict::info});
  }

  std::vector<int64_t> crash_ns[2];
  std::vector<int64_t> beyond_lease_ns[2];  // the crash's time beyond the lease left at the kill
  for (int repetition = 0; repetition < crash_repetitions; ++repetition) {
    for (const bool crash_election : {true, false}) {
      const Crash crash = crash_once(context, crash_election, repetition);
      crash_ns[crash_election].push_back(crash.new_leader_ns);
      beyond_lease_ns[crash_election].push_back(crash.new_leader_ns - crash.lease_left_ns);
    }
  }
  for (const double p : {50.0, 100.0}) {
    const int64_t ours = percentile(crash_ns[1], p);
    const int64_t theirs = percentile(crash_ns[0], p);
    const std::string which = p == 50.0 ? "p50" : "max";
    context.report.row({"kill -9 of the leader -> new leader, " + which + " of " +
                            std::to_string(crash_repetitions) + ", lease " + grouped(crash_lease_ms) + " ms",
                        milliseconds(ours), milliseconds(theirs) + " lock", ratio(ours, theirs),
                        "~ the lease", Verdict::info});
  }
  const int64_t ours_beyond = percentile(beyond_lease_ns[1], 50);
  const int64_t theirs_beyond = percentile(beyond_lease_ns[0], 50);
  context.report.row({"the same, beyond the lease left at the kill (PTTL), p50", duration(ours_beyond),
                      duration(theirs_beyond) + " lock", "", "", Verdict::info});

  const LeaderReads reads = read_leaders(context);
  const auto per_read = [](int64_t counted) {
    return fixed(static_cast<double>(counted) / static_cast<double>(leader_reads), 2);
  };
  context.report.row({"who leads, from a follower: dlock_election_leader p50",
                      duration_in_round_trips(context, percentile(reads.ns, 50)), "no equivalent", "", "",
                      Verdict::info});
  context.report.row(
      {"the same: round trips (at most), scripts and commands per call",
       per_read(reads.server.round_trips_at_most()) + " RT, " + per_read(reads.server.scripts) +
           " script of " + per_read(reads.server.all_calls) + " commands",
       "no equivalent", "", "1 round trip", verdict(reads.server.round_trips_at_most() <= leader_reads)});
  if (election.observer_ns.empty()) throw std::runtime_error("the observer was told of no hand-over's term");
  for (const double p : {50.0, 99.0}) {
    context.report.row({"observer told, from the campaign's return, p" + fixed(p, 0),
                        after_or_before(context, percentile(election.observer_ns, p)), "no equivalent", "",
                        "", Verdict::info});
  }
  context.report.row({"grant order (all election grants)",
                      grouped(election.analysis.token_inversions) + " term inversions, " +
                          grouped(election.analysis.overlaps) + " overlaps",
                      "", "", "none",
                      verdict(election.analysis.token_inversions == 0 && election.analysis.overlaps == 0)});
  context.report.note(
      "resign -> new leader = dlock_election_resign (dlock_lock_release) begins -> dlock_election_campaign "
      "(dlock_lock_acquire) returns in another process that was already waiting; " +
      grouped(static_cast<int64_t>(election.analysis.handoff_ns.size())) + " election and " +
      grouped(static_cast<int64_t>(lock.analysis.handoff_ns.size())) +
      " lock hand-overs, ABBA; an observer "
      "(dlock_election_observe, in the benchmark's process) followed the election's runs");
  context.report.note(
      "observer: told of " + grouped(static_cast<int64_t>(election.observer_ns.size())) +
      " of the hand-overs' terms, by the XREAD BLOCK the grant's script wakes, as the new leader's reply; "
      "resign -> observer told p50 " +
      duration_in_round_trips(context, percentile(election.resign_to_told_ns, 50)) + ", p99 " +
      duration_in_round_trips(context, percentile(election.resign_to_told_ns, 99)));
  context.report.note(
      "kill -9: the leader is killed just after its watchdog renewed the lease (watchdog_timeout_ms = " +
      grouped(crash_lease_ms) +
      "), the other two blocked in their campaign (acquire); the new leader is "
      "granted once the lease runs out, for the election as for the lock: the election adds nothing over it");
  context.report.note(
      "who leads: the lock recipe cannot tell (its waiters only wait, and the lock's hash holds an owner id, "
      "not an address); a Redisson-style recipe would need a separate key the leader writes and "
      "followers GET, unrelated to the lock's lease");
}

}  // namespace dlock_bench
