// Who leads an election on ZooKeeper, read as Curator's LeaderSelector reads
// it (getLeader): the first of the leadership path's lock nodes by sequence,
// its data the leader's value (Curator's participant id), its creation zxid
// the term and its creation time the term's start.
#pragma once

#include <optional>

#include "backends/zookeeper/zk_lock_layout.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "backends/zookeeper/zk_watches.hpp"
#include "core/election_ops.hpp"

namespace dlock {

// nullopt when no node is queued. With `watch_id`, leaves a child watch on the
// path (an exists watch while the path is missing) and a data watch on the
// leader's node, so any change of leader or value fires it. Throws
// ConnectionError, AuthError, ProtocolError.
std::optional<Leader> read_leader(zk::ZkSession& session, const ZkLockLayout& layout,
                                  zk::WatchRegistry::Id watch_id = 0);

}  // namespace dlock
