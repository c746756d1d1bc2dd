// What the safety run covers: the primitives, the faults, and what the
// project claims for each pair (docs/safety.md), which decides whether a
// violation the checker finds fails the run or is the expected, flagged one.
#pragma once

#include <string>
#include <vector>

namespace dlock_safety {

enum class Primitive { lock, fair_lock, rwlock, semaphore, permits, latch, multilock, redlock, election };
enum class Fault {
  holder_kill9,
  holder_sigstop,
  client_kill_storm,
  restart_appendonly,
  restart_no_persistence,
  sentinel_failover,
  sentinel_failover_sync,
  cluster_failover,
  cluster_failover_sync,
  // On a 3-node ZooKeeper ensemble (a build with the ZooKeeper backend only):
  zk_holder_kill9,
  zk_holder_sigstop,  // paused past its session: expired, the next holder granted
  zk_leader_kill,     // kill -9 of the ensemble's leader, then its restart
  // On a PostgreSQL or a MariaDB server's lock table (a build with that backend only):
  pg_holder_kill9,
  pg_holder_sigstop,  // paused past its lease: the row taken over, the next holder granted
  mariadb_holder_kill9,
  mariadb_holder_sigstop,
};

enum class Topology { standalone, sentinel, cluster, zookeeper, postgresql, mariadb };

const std::vector<Primitive>& all_primitives();
// Every fault this build can run: the ZooKeeper and SQL ones only with their backends.
const std::vector<Fault>& all_faults();
std::string primitive_name(Primitive primitive);  // "lock", "fair-lock", ...
std::string fault_name(Fault fault);              // "holder-kill9", ...
Topology topology_of(Fault fault);
bool uses_sync_replicas(Fault fault);

// What a fault does to the holders it picks: killed (kill -9), paused past
// their lease or session (SIGSTOP), or nothing (the fault is the server's).
enum class HolderAction { none, kill9, pause };
HolderAction holder_action(Fault fault);

enum class Claim {
  safe,               // any violation fails the run
  safe_with_fencing,  // overlaps are expected, each must be caught by the fenced store
  known_unsafe,       // violations are expected and flagged, not failures
  not_applicable,     // the pair is not run
};

struct Expectation {
  Claim claim = Claim::safe;
  std::string reason;  // why, for the report (empty for plain safe)
};

Expectation expectation(Primitive primitive, Fault fault);

// How long the victim (the holder a fault is aimed at) stays in its section:
// long enough for the fault to happen while it holds.
int victim_section_ms(Fault fault);

}  // namespace dlock_safety
