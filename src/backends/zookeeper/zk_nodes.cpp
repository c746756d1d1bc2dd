#include "backends/zookeeper/zk_nodes.hpp"

#include <zookeeper/zookeeper.h>

#include "backends/zookeeper/zk_call.hpp"
#include "common/error.hpp"
#include "common/random_uuid.hpp"

namespace dlock {
namespace zk {
namespace {

// Curator retries a create whose parent vanished (a container the server
// deleted once empty) a few times too (LockInternals.attemptLock).
constexpr int max_parent_attempts = 5;

// After an unknown create outcome: our node (its path and czxid) if the server
// made it, else an empty path.
CreatedNode find_protected(ZkSession& session, const std::string& parent, const std::string& prefix) {
  // The C client queues requests while it reconnects: the listing waits for the
  // session to come back, for as long as the command timeout allows.
  const ChildrenResult children = get_children(session, parent);
  if (children.rc == ZNONODE) return {};
  if (children.rc != ZOK) raise_for(children.rc, "getChildren", parent);
  for (const std::string& child : children.children) {
    if (child.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string path = parent + "/" + child;
    const StatResult found = exists(session, path);
    if (found.rc != ZOK) raise_for(found.rc, "exists", path);
    return CreatedNode{path, static_cast<std::uint64_t>(found.stat.czxid), std::nullopt};
  }
  return {};
}

}  // namespace

void create_containers(ZkSession& session, const std::string& path) {
  // An ancestor made empty is a container the server may delete before its
  // child is made under it: then the walk starts again from the top.
  for (int tries = 1;; ++tries) {
    for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
      const std::string ancestor = slash == std::string::npos ? path : path.substr(0, slash);
      const CreateResult made = create(session, ancestor, std::string(), ZOO_CONTAINER);
      if (made.rc == ZNONODE && tries < max_parent_attempts) break;
      if (made.rc != ZOK && made.rc != ZNODEEXISTS) raise_for(made.rc, "create", ancestor);
      if (slash == std::string::npos) return;
    }
  }
}

std::string protected_prefix(const std::string& base) {
  return "_c_" + random_uuid() + "-" + base;
}

std::string name_of(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

std::future<ChildrenResult> send_list(ZkSession& session, const std::string& path,
                                      WatchRegistry::Id watch_id) {
  if (watch_id == 0) return send_get_children(session, path);
  return send_get_children(session, path, WatchRegistry::watcher(), WatchRegistry::context(watch_id));
}

void delete_held(ZkSession& session, const std::string& path, const char* what) {
  const int rc = remove(session, path);
  if (rc == ZNONODE) {
    throw LostError(std::string(what) + " node " + path + " was gone at release: the " + what + " was lost");
  }
  if (rc != ZOK) raise_for(rc, "delete", path);
}

std::vector<bool> still_held(ZkSession& session, const std::vector<HeldNode>& nodes) {
  // The server deleted an expired session's nodes before it said so.
  if (session.state() == SessionState::expired) return std::vector<bool>(nodes.size(), false);
  std::vector<std::future<StatResult>> answers;
  answers.reserve(nodes.size());
  for (const HeldNode& node : nodes) answers.push_back(send_exists(session, node.path));
  if (answers.empty()) return {};
  // In order, as create_protected's listing: the last answer here means all are.
  const StatResult last = await(session, answers.back(), "exists", nodes.back().path);
  std::vector<bool> held;
  held.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const StatResult found = i + 1 == nodes.size() ? last : answers[i].get();
    if (found.rc != ZOK && found.rc != ZNONODE) raise_for(found.rc, "exists", nodes[i].path);
    held.push_back(found.rc == ZOK && static_cast<std::uint64_t>(found.stat.czxid) == nodes[i].czxid &&
                   found.stat.ephemeralOwner == session.session_id());
  }
  return held;
}

CreatedNode create_protected(ZkSession& session, const std::string& parent, const std::string& prefix,
                             const std::string& data, WatchRegistry::Id watch_id) {
  const std::string create_path = parent + "/" + prefix;
  for (int tries = 1; tries <= max_parent_attempts; ++tries) {
    auto created = send_create(session, create_path, data, ZOO_EPHEMERAL_SEQUENTIAL);
    auto listed = send_list(session, parent, watch_id);
    // The server answers one session's requests in order and the completion
    // thread delivers them in order: once the listing is here, the create's
    // answer is too. One wait for both.
    ChildrenResult children = await(session, listed, "getChildren", parent);
    CreateResult node = created.get();
    if (node.rc == ZOK) {
      CreatedNode made{node.path, static_cast<std::uint64_t>(node.stat.czxid), std::nullopt};
      if (children.rc == ZOK) made.children = std::move(children.children);
      return made;
    }
    if (node.rc == ZNONODE) {
      create_containers(session, parent);
      continue;
    }
    if (!outcome_unknown(node.rc)) raise_for(node.rc, "create", create_path);
    CreatedNode ours = find_protected(session, parent, prefix);
    if (!ours.path.empty()) return ours;
  }
  throw ConnectionError("ZooKeeper create under " + parent + ": its parent kept vanishing (" +
                        std::to_string(max_parent_attempts) + " attempts)");
}

}  // namespace zk
}  // namespace dlock
