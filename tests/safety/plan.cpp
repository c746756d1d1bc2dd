#include "plan.hpp"

namespace dlock_safety {

const std::vector<Primitive>& all_primitives() {
  static const std::vector<Primitive> primitives = {
      Primitive::lock,  Primitive::fair_lock, Primitive::rwlock,  Primitive::semaphore, Primitive::permits,
      Primitive::latch, Primitive::multilock, Primitive::redlock, Primitive::election};
  return primitives;
}

const std::vector<Fault>& all_faults() {
  static const std::vector<Fault> faults = {
      Fault::holder_kill9,           Fault::holder_sigstop,         Fault::client_kill_storm,
      Fault::restart_appendonly,     Fault::restart_no_persistence, Fault::sentinel_failover,
      Fault::sentinel_failover_sync, Fault::cluster_failover,       Fault::cluster_failover_sync,
#ifdef DLOCK_SAFETY_ZOOKEEPER
      Fault::zk_holder_kill9,        Fault::zk_holder_sigstop,      Fault::zk_leader_kill,
#endif
#ifdef DLOCK_SAFETY_POSTGRESQL
      Fault::pg_holder_kill9,        Fault::pg_holder_sigstop,
#endif
#ifdef DLOCK_SAFETY_MYSQL
      Fault::mariadb_holder_kill9,   Fault::mariadb_holder_sigstop,
#endif
  };
  return faults;
}

std::string primitive_name(Primitive primitive) {
  switch (primitive) {
    case Primitive::lock:
      return "lock";
    case Primitive::fair_lock:
      return "fair-lock";
    case Primitive::rwlock:
      return "read-write-lock";
    case Primitive::semaphore:
      return "semaphore";
    case Primitive::permits:
      return "leased-permits";
    case Primitive::latch:
      return "latch";
    case Primitive::multilock:
      return "multilock";
    case Primitive::redlock:
      return "redlock";
    case Primitive::election:
      return "election";
  }
  return "?";
}

std::string fault_name(Fault fault) {
  switch (fault) {
    case Fault::holder_kill9:
      return "holder-kill9";
    case Fault::holder_sigstop:
      return "holder-sigstop";
    case Fault::client_kill_storm:
      return "client-kill-storm";
    case Fault::restart_appendonly:
      return "restart-appendonly";
    case Fault::restart_no_persistence:
      return "restart-no-persistence";
    case Fault::sentinel_failover:
      return "sentinel-failover";
    case Fault::sentinel_failover_sync:
      return "sentinel-failover-sync";
    case Fault::cluster_failover:
      return "cluster-failover";
    case Fault::cluster_failover_sync:
      return "cluster-failover-sync";
    case Fault::zk_holder_kill9:
      return "zk-holder-kill9";
    case Fault::zk_holder_sigstop:
      return "zk-holder-sigstop";
    case Fault::zk_leader_kill:
      return "zk-leader-kill";
    case Fault::pg_holder_kill9:
      return "pg-holder-kill9";
    case Fault::pg_holder_sigstop:
      return "pg-holder-sigstop";
    case Fault::mariadb_holder_kill9:
      return "mariadb-holder-kill9";
    case Fault::mariadb_holder_sigstop:
      return "mariadb-holder-sigstop";
  }
  return "?";
}

Topology topology_of(Fault fault) {
  switch (fault) {
    case Fault::sentinel_failover:
    case Fault::sentinel_failover_sync:
      return Topology::sentinel;
    case Fault::cluster_failover:
    case Fault::cluster_failover_sync:
      return Topology::cluster;
    case Fault::zk_holder_kill9:
    case Fault::zk_holder_sigstop:
    case Fault::zk_leader_kill:
      return Topology::zookeeper;
    case Fault::pg_holder_kill9:
    case Fault::pg_holder_sigstop:
      return Topology::postgresql;
    case Fault::mariadb_holder_kill9:
    case Fault::mariadb_holder_sigstop:
      return Topology::mariadb;
    default:
      return Topology::standalone;
  }
}

HolderAction holder_action(Fault fault) {
  switch (fault) {
    case Fault::holder_kill9:
    case Fault::zk_holder_kill9:
    case Fault::pg_holder_kill9:
    case Fault::mariadb_holder_kill9:
      return HolderAction::kill9;
    case Fault::holder_sigstop:
    case Fault::zk_holder_sigstop:
    case Fault::pg_holder_sigstop:
    case Fault::mariadb_holder_sigstop:
      return HolderAction::pause;
    default:
      return HolderAction::none;
  }
}

bool uses_sync_replicas(Fault fault) {
  return fault == Fault::sentinel_failover_sync || fault == Fault::cluster_failover_sync;
}

namespace {

bool is_lock_family(Primitive primitive) {
  return primitive == Primitive::lock || primitive == Primitive::fair_lock ||
         primitive == Primitive::rwlock || primitive == Primitive::multilock ||
         primitive == Primitive::election;
}

// ZooKeeper: consensus, and the session in place of a lease. What it does not
// serve (SPEC section 12) is not run.
Expectation zookeeper_expectation(Primitive primitive, Fault fault) {
  switch (primitive) {
    case Primitive::lock:
    case Primitive::fair_lock:
    case Primitive::rwlock:
    case Primitive::multilock:
    case Primitive::election:
      break;
    default:
      return {Claim::not_applicable, "not run on ZooKeeper"};
  }
  if (holder_action(fault) != HolderAction::pause) return {Claim::safe, ""};
  if (primitive == Primitive::multilock)
    return {Claim::known_unsafe, "a paused holder's session expires; the C API's MultiLock returns no token"};
  return {Claim::safe_with_fencing,
          "a pause longer than the session: only the fencing token (the node's czxid) stops the stale write"};
}

}  // namespace

// SQL's lock table: the reentrant lock, groups of it and the election (its
// leadership a lock row) only (SPEC section 12); a lease by the server's
// clock, renewed by the watchdog.
Expectation sql_expectation(Primitive primitive, Fault fault) {
  if (primitive != Primitive::lock && primitive != Primitive::multilock && primitive != Primitive::election)
    return {Claim::not_applicable, "not run on SQL"};
  if (holder_action(fault) != HolderAction::pause) return {Claim::safe, ""};
  if (primitive == Primitive::multilock)
    return {Claim::known_unsafe, "a paused holder's lease lapses; the C API's MultiLock returns no token"};
  return {Claim::safe_with_fencing,
          "a pause longer than the lease: only the fencing token (from the sequence) stops the stale write"};
}

Expectation expectation(Primitive primitive, Fault fault) {
  if (topology_of(fault) == Topology::zookeeper) return zookeeper_expectation(primitive, fault);
  if (topology_of(fault) == Topology::postgresql || topology_of(fault) == Topology::mariadb)
    return sql_expectation(primitive, fault);
  const bool failover = topology_of(fault) != Topology::standalone;
  if (primitive == Primitive::redlock && failover) {
    return {Claim::not_applicable, "RedLock runs over independent masters, not over replicas"};
  }
  if (failover && !uses_sync_replicas(fault)) {
    return {Claim::known_unsafe, "the unreplicated-failover window: a grant the new master never received"};
  }
  if (failover && !is_lock_family(primitive)) {
    return {Claim::known_unsafe, "sync_replicas covers the lock family only"};
  }
  if (failover && primitive == Primitive::election) {
    // A leader holds on: one granted before the cut renews on the master
    // alone, and its lease on the promoted replica lapses (renewals are not
    // waited for); the lock family's victims are granted after the failover.
    return {Claim::safe_with_fencing,
            "a leadership renewed through a replication outage longer than its lease: sync_replicas confirms "
            "grants, not renewals; the term stops the stale write"};
  }
  if (fault == Fault::restart_no_persistence) {
    // RedLock too: the victim may hold only a bare majority (a member busy at
    // its acquire), and the emptied server then lets a second majority form.
    return {Claim::known_unsafe, primitive == Primitive::redlock
                                     ? "a server restarted empty at once can complete a second majority"
                                     : "a restart without persistence loses every key"};
  }
  if (holder_action(fault) == HolderAction::pause) {
    switch (primitive) {
      case Primitive::lock:
      case Primitive::fair_lock:
      case Primitive::rwlock:
      case Primitive::election:
        return {Claim::safe_with_fencing,
                "a pause longer than the lease: only the fencing token (the term) stops the stale write"};
      case Primitive::permits:
        return {Claim::known_unsafe, "a paused holder's lease lapses; permits carry no token"};
      case Primitive::multilock:
        return {Claim::known_unsafe,
                "a paused holder's lease lapses; the C API's MultiLock returns no token"};
      case Primitive::redlock:
        return {Claim::known_unsafe, "RedLock has no token and relies on bounded pauses"};
      default:
        break;  // the plain semaphore has no lease to lapse; the latch has no holder
    }
  }
  return {Claim::safe, ""};
}

int victim_section_ms(Fault fault) {
  switch (topology_of(fault)) {
    case Topology::sentinel:
      return 8000;  // a sentinel failover takes a few seconds
    case Topology::cluster:
      return 8000;
    case Topology::zookeeper:
      if (fault == Fault::zk_leader_kill) return 8000;  // a new leader is elected in a few seconds
      break;
    case Topology::standalone:
    case Topology::postgresql:
    case Topology::mariadb:
      break;
  }
  return holder_action(fault) == HolderAction::pause ? 200 : 1500;
}

}  // namespace dlock_safety
