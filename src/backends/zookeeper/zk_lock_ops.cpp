#include "backends/zookeeper/zk_lock_ops.hpp"

#include <zookeeper/zookeeper.h>

#include <algorithm>
#include <future>
#include <vector>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_children_watch.hpp"
#include "common/error.hpp"
#include "core/held_resource.hpp"

namespace dlock {
namespace {

class ZkHeld final : public HeldResource {
 public:
  ZkHeld(std::string name, std::string hold_key) : name_(std::move(name)), hold_key_(std::move(hold_key)) {}
  const std::string& name() const override { return name_; }
  const std::string& hold_key() const override { return hold_key_; }

 private:
  const std::string name_;
  const std::string hold_key_;
};

// The lock path's children; none when the path is gone.
std::vector<std::string> children_of(zk::ZkSession& session, const std::string& path) {
  const zk::ChildrenResult listed = zk::get_children(session, path);
  if (listed.rc == ZNONODE) return {};
  if (listed.rc != ZOK) zk::raise_for(listed.rc, "getChildren", path);
  return listed.children;
}

// Deletes `node`: 1 released, 0 gone (the session expired and took it, or
// another client deleted it). No check of the node comes first: its path
// carries the protected UUID of the one attempt that created it (a fresh one
// per queueing), so no other node is ever at that path, and one request
// settles the release. A retry of `request_id` whose earlier delete went
// unanswered, finding the node gone while the session that sent it lives,
// answers 1: our delete ran. (A force release by another client in between
// reads as ours too.) Once the session expired, nothing tells whether the
// server ran that delete before the expiry took the node, and a holder
// paused past its session sends its delete into a connection the server
// already closed: the release answers 0, lost, as the hold may have been.
int64_t release_node_once(zk::ZkSession& session, const std::string& node, const std::string& request_id,
                          ZkDeletesInDoubt& in_doubt, std::chrono::milliseconds latch) {
  const std::int64_t session_id = session.session_id();
  // An earlier try's delete that went unanswered, on this same session.
  const bool sent_before = in_doubt.take(request_id, session_id);
  if (session.state() == zk::SessionState::expired) return 0;
  in_doubt.sent(request_id, session_id, latch);
  const int rc = zk::remove(session, node);  // a timeout throws, leaving the delete in doubt
  if (zk::outcome_unknown(rc)) zk::raise_for(rc, "delete", node);
  in_doubt.take(request_id, session_id);  // answered: in doubt no more
  if (rc == ZOK) return 1;
  if (rc == ZNONODE) return sent_before ? 1 : 0;
  if (rc == ZSESSIONEXPIRED) return 0;
  zk::raise_for(rc, "delete", node);
}

// release_node_once, with a broken connection waited out (up to the command
// timeout) while the session may live: the reconnection says whether the node
// is still ours to delete, or the session expired and took it (a paused
// holder, resumed, releases into a connection its client has yet to give up).
int64_t release_node(zk::ZkSession& session, const std::string& node, const std::string& request_id,
                     ZkDeletesInDoubt& in_doubt, std::chrono::milliseconds latch) {
  const zk::Clock::time_point give_up_at = zk::Clock::now() + session.command_timeout();
  for (;;) {
    try {
      return release_node_once(session, node, request_id, in_doubt, latch);
    } catch (const ConnectionError&) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(give_up_at - zk::Clock::now());
      const bool reconnected = left.count() > 0 && session.wait_connected(left);
      if (!reconnected && session.state() != zk::SessionState::expired) throw;
    }
  }
}

// A withdrawal: deletes the children of each node's parent named with its
// prefix (one at most: the prefix is a fresh UUID per node). 1 when one was there.
int64_t withdraw_nodes(zk::ZkSession& session, const std::vector<zk::QueuedNode>& nodes) {
  int64_t withdrawn = 0;
  for (const zk::QueuedNode& node : nodes) {
    for (const std::string& child : children_of(session, node.parent)) {
      if (child.compare(0, node.prefix.size(), node.prefix) != 0) continue;
      const int rc = zk::remove(session, node.parent + "/" + child);
      if (rc == ZOK) withdrawn = 1;
      if (rc != ZOK && rc != ZNONODE) zk::raise_for(rc, "delete", node.parent + "/" + child);
      break;
    }
  }
  return withdrawn;
}

}  // namespace

void ZkDeletesInDoubt::sent(const std::string& request_id, std::int64_t session_id,
                            std::chrono::milliseconds latch) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  // Those past their latch are retried no more: the record stays small.
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = it->second.until <= now ? entries_.erase(it) : std::next(it);
  }
  entries_[request_id] = Entry{session_id, now + latch};
}

bool ZkDeletesInDoubt::take(const std::string& request_id, std::int64_t session_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = entries_.find(request_id);
  if (found == entries_.end()) return false;
  const bool same_session = found->second.session_id == session_id;
  entries_.erase(found);
  return same_session;
}

ZkLockOps::ZkLockOps(SessionOf session, std::string name, LockKind kind)
    : ZkLockOps(std::move(session), name, ZkLockLayout(name, kind)) {}

ZkLockOps::ZkLockOps(SessionOf session, std::string name, ZkLockLayout layout, NodeData node_data)
    : session_(std::move(session)),
      name_(std::move(name)),
      layout_(std::move(layout)),
      node_data_(std::move(node_data)),
      held_(std::make_shared<ZkHeld>(name_, layout_.hold_key())) {}

std::unique_ptr<LockWait> ZkLockOps::begin(const std::string& owner_field, int64_t /*lease_ms*/) {
  return std::make_unique<ZkLockWait>(session_, layout_, owner_field,
                                      node_data_ ? node_data_(owner_field) : owner_field, unheard_);
}

std::unique_ptr<WaitWatch> ZkLockOps::watch_releases(Waiter& waiter) {
  return std::make_unique<ZkChildrenWatch>(
      session_(), layout_.holders_path(),
      [layout = layout_](const std::vector<std::string>& holders) { return layout.open_to_another(holders); },
      waiter);
}

bool ZkLockOps::release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) {
  return settle_release(grant, request_id, latch_ms)(std::nullopt) != 0;
}

Settle ZkLockOps::settle_release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) {
  // Each try is one request per step, each bounded by the session's command
  // timeout (the C client reconnects by itself): `once_before` adds nothing.
  if (grant.locator.empty()) {
    // Taken now: the owner's next wait, once this is settled, has another prefix.
    const std::optional<std::vector<zk::QueuedNode>> nodes = unheard_->nodes_of(grant.owner_field);
    return [session = session_, nodes](std::optional<Clock::time_point>) -> int64_t {
      if (!nodes) return 0;
      const std::shared_ptr<zk::ZkSession> on = session();
      try {
        return withdraw_nodes(*on, *nodes);
      } catch (const ConnectionError&) {
        // The session turned out expired: the nodes went with it (a wait's
        // are on the session of the moment or an older one).
        if (on->state() != zk::SessionState::expired) throw;
        return 0;
      }
    };
  }
  return [session = session_, node = grant.locator, request_id, in_doubt = in_doubt_,
          latch = std::chrono::milliseconds(latch_ms)](std::optional<Clock::time_point>) {
    return release_node(*session(), node, request_id, *in_doubt, latch);
  };
}

LockOps::Extension ZkLockOps::extend(const GrantRef& /*grant*/, int64_t /*lease_ms*/) {
  throw UnsupportedError(
      "extend '" + name_ +
      "': the zookeeper backend holds a lock for its session; lease_ms must be -1 (watchdog)");
}

bool ZkLockOps::release_keeping(const GrantRef& /*grant*/, int64_t /*keep_ms*/) {
  throw UnsupportedError(
      "release_keeping '" + name_ +
      "': the zookeeper backend holds a lock for its session, which cannot keep it unheld");
}

bool ZkLockOps::force_release() {
  const std::shared_ptr<zk::ZkSession> held_by = session_();
  zk::ZkSession& session = *held_by;
  const std::string& holders = layout_.holders_path();
  const std::vector<std::string> children = children_of(session, holders);
  if (children.empty()) return false;
  std::vector<std::future<int>> deletes;
  for (const std::string& child : children)
    deletes.push_back(zk::send_delete(session, holders + "/" + child));
  // Answered in order: once the last is here, all are. One round trip.
  const int last = zk::await(session, deletes.back(), "delete", holders);
  bool deleted = false;
  for (std::size_t i = 0; i < deletes.size(); ++i) {
    const int rc = i + 1 == deletes.size() ? last : deletes[i].get();
    if (rc == ZOK) deleted = true;
    if (rc != ZOK && rc != ZNONODE) zk::raise_for(rc, "delete", holders + "/" + children[i]);
  }
  return deleted;
}

bool ZkLockOps::is_locked() {
  return !children_of(*session_(), layout_.holders_path()).empty();
}

int64_t ZkLockOps::ttl_ms() {
  return is_locked() ? -1 : -2;
}

std::vector<ZkLockOps::HolderNode> ZkLockOps::holder_nodes(zk::ZkSession& session) const {
  std::vector<std::future<zk::DataResult>> answers;
  const std::string& parent = layout_.holders_path();
  const std::vector<std::string> holders = layout_.holding(children_of(session, parent));
  for (const std::string& holder : holders) answers.push_back(zk::send_get(session, parent + "/" + holder));
  std::vector<HolderNode> nodes;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const std::string path = parent + "/" + holders[i];
    const zk::DataResult found = zk::await(session, answers[i], "getData", path);
    if (found.rc == ZNONODE) continue;  // released since the listing
    if (found.rc != ZOK) zk::raise_for(found.rc, "getData", path);
    // A node without a note carries the owner field alone (a Curator node: its client's address).
    HolderNote data = HolderNote::from_stored(found.data).value_or(HolderNote{found.data, ""});
    nodes.push_back({path, std::move(data), static_cast<std::uint64_t>(found.stat.czxid)});
  }
  return nodes;
}

LockInspection ZkLockOps::inspect() {
  LockInspection inspection;
  for (const HolderNode& node : holder_nodes(*session_())) {
    inspection.holders.push_back({node.data.holder, 1});
    inspection.last_token = std::max(inspection.last_token.value_or(0), node.czxid);
  }
  if (!inspection.holders.empty()) inspection.ttl_ms = -1;
  return inspection;
}

bool ZkLockOps::note_holder(const std::string& field, const std::string& note) {
  if (node_data_) return LockOps::note_holder(field, note);
  const std::shared_ptr<zk::ZkSession> held_by = session_();
  for (const HolderNode& node : holder_nodes(*held_by)) {
    if (node.data.holder != field) continue;
    auto answer = zk::send_set(*held_by, node.path, HolderNote{field, note}.stored());
    const zk::StatResult set = zk::await(*held_by, answer, "setData", node.path);
    if (set.rc == ZNONODE) return false;
    if (set.rc != ZOK) zk::raise_for(set.rc, "setData", node.path);
    return true;
  }
  return false;
}

std::optional<HolderNote> ZkLockOps::holder_note() {
  if (node_data_) return LockOps::holder_note();
  for (HolderNode& node : holder_nodes(*session_())) {
    if (!node.data.note.empty()) return std::move(node.data);
  }
  return std::nullopt;
}

}  // namespace dlock
