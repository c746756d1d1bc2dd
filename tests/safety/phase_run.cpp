#include "phase_run.hpp"

#include <signal.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <memory>
#include <thread>

#include "child_process.hpp"
#include "monotonic_clock.hpp"
#include "wait_until.hpp"
#include "worker_launcher.hpp"

namespace dlock_safety {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Every lease is the watchdog's, renewed every third of this: a killed or
// paused holder's lease lapses within it.
constexpr int kWatchdogMs = 2000;
constexpr int kPermits = 3;
// Sections of the contenders: up to half a millisecond inside.
constexpr const char* kContenderSectionUs = "500";
constexpr int kContenderCycles = 100000000;  // the phase stops them
constexpr auto kStormLength = milliseconds(2000);
constexpr auto kStormPeriod = milliseconds(50);

// One primitive's part of a phase.
struct Participant {
  Primitive primitive;
  std::vector<std::string> names;
  std::string log;
  std::string store;
  std::vector<std::unique_ptr<dlock_test::ChildProcess>> contenders;
};

// The holders a fault is aimed at: one per primitive, one section each.
struct Victims {
  std::vector<std::unique_ptr<dlock_test::ChildProcess>> processes;
  std::vector<std::string> outputs;
};

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}

std::size_t names_needed(Primitive primitive) {
  return primitive == Primitive::multilock ? 2 : 1;
}

// What a worker of `participant` is run with; `victim` takes a single long
// section and announces it (a read-write victim always writes).
std::vector<std::string> worker_arguments(const Participant& participant, Deployment& deployment, bool sync,
                                          bool victim) {
  std::vector<std::string> arguments;
  switch (participant.primitive) {
    case Primitive::lock:
      arguments = {"--mode", "cycles", "--kind", "lock"};
      break;
    case Primitive::fair_lock:
      arguments = {"--mode", "cycles", "--kind", "fair"};
      break;
    case Primitive::rwlock:
      arguments = {"--mode", "cycles", "--kind", victim ? "write" : "read-write"};
      break;
    case Primitive::semaphore:
    case Primitive::permits:
      arguments = {"--mode",    participant.primitive == Primitive::semaphore ? "semaphore" : "permits",
                   "--permits", std::to_string(kPermits),
                   "--wait-ms", "1000"};
      break;
    case Primitive::latch:
      arguments = {"--mode", "latch"};
      break;
    case Primitive::multilock:
      arguments = {"--mode", "multilock"};
      break;
    case Primitive::redlock:
      arguments = {"--mode", "redlock", "--urls", deployment.redlock_urls()};
      break;
    case Primitive::election:
      arguments = {"--mode", "election"};
      break;
  }
  arguments.insert(arguments.end(),
                   {"--name", join(participant.names, ","), "--log", participant.log, "--watchdog-timeout-ms",
                    std::to_string(kWatchdogMs), "--tolerate-errors", "1"});
  if (participant.primitive != Primitive::redlock)
    arguments.insert(arguments.end(), {"--url", deployment.url(sync)});
  if (participant.primitive != Primitive::semaphore && participant.primitive != Primitive::permits &&
      participant.primitive != Primitive::latch) {
    arguments.insert(arguments.end(), {"--store", participant.store});
  }
  return arguments;
}

std::size_t count_lines(const std::string& path) {
  std::ifstream file(path);
  return static_cast<std::size_t>(
      std::count(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>(), '\n'));
}

// The log whose lines count the participant's grants.
std::string counted_log(const Participant& participant) {
  const bool per_name =
      participant.primitive == Primitive::multilock || participant.primitive == Primitive::redlock;
  return per_name ? participant.log + "." + participant.names.front() : participant.log;
}

bool all_reached(const std::vector<Participant>& participants, std::size_t lines) {
  for (const Participant& participant : participants)
    if (count_lines(counted_log(participant)) < lines) return false;
  return true;
}

Victims start_victims(const std::vector<Participant>& participants, Deployment& deployment, Fault fault,
                      const RunSettings& settings, int repeat) {
  Victims victims;
  const int section_ms = victim_section_ms(fault);
  for (const Participant& participant : participants) {
    std::vector<std::string> arguments =
        worker_arguments(participant, deployment, uses_sync_replicas(fault), true);
    // The latch victim's round pauses before each of its three count-downs.
    const std::string section_us = std::to_string(static_cast<int64_t>(section_ms) * 1000 /
                                                  (participant.primitive == Primitive::latch ? 3 : 1));
    arguments.insert(arguments.end(), {"--threads", "1", "--cycles", "1", "--announce", "1", "--min-sleep-us",
                                       section_us, "--max-sleep-us", section_us});
    const std::string output = settings.work_dir + "/victim-" + fault_name(fault) + "-" +
                               primitive_name(participant.primitive) + "-" + std::to_string(repeat) + ".out";
    victims.outputs.push_back(output);
    victims.processes.push_back(dlock_test::start_worker(arguments, output));
  }
  return victims;
}

// Waits (at most `timeout` in all) until every victim is inside its section.
void await_sections(const Victims& victims, milliseconds timeout) {
  const int64_t deadline = dlock_test::monotonic_ms() + timeout.count();
  for (const std::string& output : victims.outputs) {
    const int64_t left = std::max<int64_t>(0, deadline - dlock_test::monotonic_ms());
    dlock_test::wait_for_output(output, "acquired", milliseconds(left));
  }
}

void signal_all(Victims& victims, int signal_number) {
  for (auto& victim : victims.processes) victim->signal(signal_number);
}

// One injection of `fault`; the victims it started, still running, go to `finishing`.
void inject(Fault fault, std::vector<Participant>& participants, Deployment& deployment,
            const RunSettings& settings, int repeat, std::vector<Victims>& finishing) {
  if (fault == Fault::client_kill_storm) {
    const int64_t end = dlock_test::monotonic_ms() + kStormLength.count();
    while (dlock_test::monotonic_ms() < end) {
      deployment.kill_clients();
      std::this_thread::sleep_for(kStormPeriod);
    }
    return;
  }
  const bool failover = topology_of(fault) == Topology::sentinel || topology_of(fault) == Topology::cluster;
  if (failover) deployment.cut_replication();
  Victims victims = start_victims(participants, deployment, fault, settings, repeat);
  // With sync_replicas no grant can complete while replication is cut: the
  // victims wait, and the failover goes ahead without them.
  await_sections(victims, uses_sync_replicas(fault) ? milliseconds(2000) : milliseconds(10000));
  switch (holder_action(fault)) {
    case HolderAction::kill9:
      for (auto& victim : victims.processes) victim->kill_and_reap();
      return;
    case HolderAction::pause:
      signal_all(victims, SIGSTOP);
      std::this_thread::sleep_for(milliseconds(kWatchdogMs * 5 / 2));  // the lease (session) lapses meanwhile
      signal_all(victims, SIGCONT);
      finishing.push_back(std::move(victims));
      return;
    case HolderAction::none:
      break;
  }
  switch (fault) {
    case Fault::zk_leader_kill:
      deployment.kill_leader();
      break;
    case Fault::restart_appendonly:
    case Fault::restart_no_persistence:
      deployment.restart_primary();
      break;
    default:
      deployment.fail_over();
      break;
  }
  finishing.push_back(std::move(victims));
}

}  // namespace

std::vector<CellResult> run_phase(Fault fault, Deployment& deployment,
                                  const std::vector<Primitive>& primitives, const RunSettings& settings) {
  std::vector<Participant> participants;
  for (Primitive primitive : primitives) {
    if (expectation(primitive, fault).claim == Claim::not_applicable) continue;
    Participant participant{primitive, {}, {}, {}, {}};
    const std::string tag = fault_name(fault) + "-" + primitive_name(primitive);
    participant.names = deployment.names(names_needed(primitive), tag + "-");
    participant.log = settings.work_dir + "/" + tag + ".sections";
    participant.store = settings.work_dir + "/" + tag + ".store";
    participants.push_back(std::move(participant));
  }
  const bool sync = uses_sync_replicas(fault);
  for (Participant& participant : participants) {
    std::vector<std::string> arguments = worker_arguments(participant, deployment, sync, false);
    arguments.insert(arguments.end(),
                     {"--threads", std::to_string(settings.threads_per_process), "--cycles",
                      std::to_string(kContenderCycles), "--max-sleep-us", kContenderSectionUs});
    for (int i = 0; i < settings.contender_processes; ++i) {
      const std::string output = settings.work_dir + "/contender-" + fault_name(fault) + "-" +
                                 primitive_name(participant.primitive) + "-" + std::to_string(i) + ".out";
      participant.contenders.push_back(dlock_test::start_worker(arguments, output));
    }
  }
  // The fault strikes while every primitive is busy.
  dlock_test::wait_until([&] { return all_reached(participants, settings.grants / 4); }, seconds(20));
  std::vector<Victims> finishing;
  for (int repeat = 0; repeat < settings.fault_repeats; ++repeat)
    inject(fault, participants, deployment, settings, repeat, finishing);
  const int64_t deadline = dlock_test::monotonic_ms() + settings.phase_deadline.count() * 1000;
  for (Victims& victims : finishing)
    for (auto& victim : victims.processes)
      victim->wait_for(milliseconds(std::max<int64_t>(0, deadline - dlock_test::monotonic_ms())));
  dlock_test::wait_until([&] { return all_reached(participants, settings.grants); },
                         milliseconds(std::max<int64_t>(0, deadline - dlock_test::monotonic_ms())));

  std::vector<CellResult> results;
  for (Participant& participant : participants) {
    for (auto& contender : participant.contenders) contender->kill_and_reap();
    CellLogs logs;
    logs.permits = kPermits;
    if (participant.primitive == Primitive::multilock || participant.primitive == Primitive::redlock) {
      for (const std::string& name : participant.names) logs.paths.push_back(participant.log + "." + name);
    } else {
      logs.paths.push_back(participant.log);
    }
    CellResult result = check_cell(participant.primitive, fault, logs);
    result.reached_target = result.operations >= settings.grants;
    results.push_back(std::move(result));
  }
  for (Victims& victims : finishing)
    for (auto& victim : victims.processes) victim->kill_and_reap();
  return results;
}

}  // namespace dlock_safety
