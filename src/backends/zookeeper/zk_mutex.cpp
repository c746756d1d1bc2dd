#include "backends/zookeeper/zk_mutex.hpp"

#include <zookeeper/zookeeper.h>

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_nodes.hpp"
#include "common/error.hpp"

namespace dlock {
namespace zk {
namespace {

// The markers in Curator's node names: InterProcessMutex.LOCK_NAME, and
// InterProcessReadWriteLock's READ_LOCK_NAME and WRITE_LOCK_NAME.
constexpr std::string_view mutex_marker = "lock-";
constexpr std::string_view read_marker = "__READ__";
constexpr std::string_view write_marker = "__WRIT__";

std::string_view marker_of(MutexKind kind) {
  switch (kind) {
    case MutexKind::read:
      return read_marker;
    case MutexKind::write:
      return write_marker;
    case MutexKind::mutex:
      break;
  }
  return mutex_marker;
}

std::string after_last(const std::string& text, std::string_view marker) {
  const auto at = text.rfind(marker);
  return at == std::string::npos ? text : text.substr(at + marker.size());
}

}  // namespace

std::string sort_key(const std::string& child, MutexKind kind) {
  if (kind == MutexKind::mutex) return after_last(child, mutex_marker);
  return after_last(after_last(child, read_marker), write_marker);
}

bool grantable_now(const std::vector<std::string>& children, MutexKind kind) {
  if (kind != MutexKind::read) return children.empty();
  return std::none_of(children.begin(), children.end(), [](const std::string& child) {
    return child.find(write_marker) != std::string::npos;
  });
}

std::vector<std::string> holders_among(std::vector<std::string> children, MutexKind kind) {
  std::stable_sort(children.begin(), children.end(), [kind](const std::string& a, const std::string& b) {
    return sort_key(a, kind) < sort_key(b, kind);
  });
  if (children.empty()) return {};
  const auto is_write = [](const std::string& child) { return child.find(write_marker) != std::string::npos; };
  if (kind == MutexKind::mutex || is_write(children.front())) return {children.front()};
  return {children.begin(), std::find_if(children.begin(), children.end(), is_write)};
}

ZkMutex::ZkMutex(ZkSession& session, std::string lock_path, MutexKind kind, std::string node_data)
    : session_(session),
      lock_path_(std::move(lock_path)),
      kind_(kind),
      node_data_(std::move(node_data)),
      node_prefix_(protected_prefix(std::string(marker_of(kind)))) {}

ZkMutex::~ZkMutex() {
  if (!granted_) abandon();
}

ZkMutex::Check ZkMutex::begin() {
  const CreatedNode node = create_protected(session_, lock_path_, node_prefix_, node_data_);
  node_path_ = node.path;
  node_name_ = name_of(node_path_);
  token_ = node.czxid;
  return node.children ? check(*node.children) : attempt();
}

ZkMutex::Check ZkMutex::attempt() {
  if (node_path_.empty()) throw ProtocolError("ZkMutex::attempt before begin on " + lock_path_);
  const ChildrenResult children = get_children(session_, lock_path_);
  if (children.rc == ZNONODE) throw LostError("lock node " + node_path_ + " is gone: its parent was deleted");
  if (children.rc != ZOK) raise_for(children.rc, "getChildren", lock_path_);
  return check(children.children);
}

ZkMutex::Check ZkMutex::check(const std::vector<std::string>& children) {
  std::vector<std::string> sorted = children;
  std::stable_sort(sorted.begin(), sorted.end(), [this](const std::string& a, const std::string& b) {
    return sort_key(a, kind_) < sort_key(b, kind_);
  });
  const auto ours = std::find(sorted.begin(), sorted.end(), node_name_);
  if (ours == sorted.end()) {
    throw LostError("lock node " + node_path_ + " is gone (session expired or deleted by another client)");
  }
  // What we wait for: for a reader the first write node ahead of ours (readers
  // ahead share with us), for the others the node just ahead.
  auto blocker = ours == sorted.begin() ? sorted.end() : ours - 1;
  if (kind_ == MutexKind::read) {
    blocker = std::find_if(sorted.begin(), ours, [](const std::string& child) {
      return child.find(write_marker) != std::string::npos;
    });
    if (blocker == ours) blocker = sorted.end();
  }
  Check result;
  if (blocker == sorted.end()) {
    granted_ = true;
    predecessor_.clear();
    drop_watch();
    result.granted = true;
    result.token = token_;
  } else {
    predecessor_ = lock_path_ + "/" + *blocker;
  }
  return result;
}

void ZkMutex::watch(std::function<void()> signal) {
  if (granted_ || predecessor_.empty())
    throw ProtocolError("ZkMutex::watch without a predecessor on " + lock_path_);
  drop_watch();
  watch_id_ = WatchRegistry::add(signal);
  watched_path_ = predecessor_;
  // getData rather than exists: on a node already gone it leaves no watch behind (Curator does the same).
  auto answer =
      send_get(session_, watched_path_, WatchRegistry::watcher(), WatchRegistry::context(watch_id_));
  const DataResult seen = await(session_, answer, "getData", watched_path_);
  if (seen.rc == ZOK) return;
  drop_watch();
  if (seen.rc != ZNONODE) raise_for(seen.rc, "getData", watched_path_);
  signal();
}

void ZkMutex::drop_watch() noexcept {
  if (watch_id_ == 0) return;
  zk::drop_watch(session_, watched_path_, ZWATCHTYPE_DATA, watch_id_);
  watch_id_ = 0;
  watched_path_.clear();
}

void ZkMutex::abandon() noexcept {
  if (granted_) return;
  drop_watch();
  if (!node_path_.empty() && session_.handle()) {
    send_delete(session_, node_path_);  // not waited for: the answer changes nothing here
  }
  node_path_.clear();
  node_name_.clear();
  predecessor_.clear();
}

void ZkMutex::release() {
  if (!granted_) throw ProtocolError("ZkMutex::release without a grant on " + lock_path_);
  const std::string node = node_path_;
  granted_ = false;
  node_path_.clear();
  node_name_.clear();
  delete_held(session_, node, "lock");
}

bool ZkMutex::acquire(std::chrono::milliseconds wait) {
  return wait_for_grant(session_, *this, wait);
}

}  // namespace zk
}  // namespace dlock
