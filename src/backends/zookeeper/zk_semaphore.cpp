#include "backends/zookeeper/zk_semaphore.hpp"

#include <zookeeper/zookeeper.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_nodes.hpp"
#include "common/error.hpp"

namespace dlock {
namespace zk {

ZkSemaphoreLease::ZkSemaphoreLease(ZkSession& session, std::string path, int max_leases, std::string node_data)
    : session_(session),
      leases_path_(path + "/leases"),
      max_leases_(static_cast<std::size_t>(max_leases)),
      node_data_(std::move(node_data)),
      lease_prefix_(protected_prefix("lease-")),
      gate_(session, path + "/locks") {
  if (max_leases < 1) throw InvalidArgument("max_leases: must be at least 1, got " + std::to_string(max_leases));
}

ZkSemaphoreLease::~ZkSemaphoreLease() {
  if (!granted_) abandon();
}

ZkCheck ZkSemaphoreLease::begin() {
  gate_held_ = gate_.begin().granted;
  return gate_held_ && counted_in(0) ? granted() : ZkCheck{};
}

ZkCheck ZkSemaphoreLease::attempt() {
  if (!gate_held_) gate_held_ = gate_.attempt().granted;
  return gate_held_ && counted_in(0) ? granted() : ZkCheck{};
}

bool ZkSemaphoreLease::counted_in(WatchRegistry::Id watch_id) {
  std::optional<std::vector<std::string>> leases;
  if (lease_path_.empty()) {
    CreatedNode lease = create_protected(session_, leases_path_, lease_prefix_, node_data_, watch_id);
    lease_path_ = lease.path;
    lease_name_ = name_of(lease_path_);
    token_ = lease.czxid;
    leases = std::move(lease.children);
  }
  if (!leases) {
    auto listed = send_list(session_, leases_path_, watch_id);
    ChildrenResult children = await(session_, listed, "getChildren", leases_path_);
    if (children.rc != ZOK && children.rc != ZNONODE) raise_for(children.rc, "getChildren", leases_path_);
    leases = std::move(children.children);
  }
  if (std::find(leases->begin(), leases->end(), lease_name_) == leases->end()) {
    throw LostError("lease node " + lease_path_ + " is gone (session expired or deleted by another client)");
  }
  return leases->size() <= max_leases_;
}

ZkCheck ZkSemaphoreLease::granted() {
  drop_watch();
  granted_ = true;
  gate_held_ = false;
  gate_.release();  // as Curator does once the lease is counted in
  return ZkCheck{true, token_};
}

void ZkSemaphoreLease::watch(std::function<void()> signal) {
  if (granted_) throw ProtocolError("ZkSemaphoreLease::watch after the grant on " + leases_path_);
  if (!gate_held_) {
    gate_.watch(std::move(signal));
    return;
  }
  drop_watch();
  watch_id_ = WatchRegistry::add(signal);
  // The listing that counts the leases leaves the watch: a lease that goes
  // after it fires the watch, one gone before it shows in the count.
  if (counted_in(watch_id_)) {
    drop_watch();
    signal();
  }
}

void ZkSemaphoreLease::drop_watch() noexcept {
  if (watch_id_ == 0) return;
  zk::drop_watch(session_, leases_path_, ZWATCHTYPE_CHILD, watch_id_);
  watch_id_ = 0;
}

void ZkSemaphoreLease::abandon() noexcept {
  if (granted_) return;
  drop_watch();
  if (!lease_path_.empty() && session_.handle()) send_delete(session_, lease_path_);  // not waited for
  lease_path_.clear();
  lease_name_.clear();
  if (gate_held_) {
    gate_held_ = false;
    try {
      gate_.release();
    } catch (const std::exception&) {
      // Giving up never throws: a gate node whose delete failed stays until
      // the session ends, and the waiters behind it wait that long.
    }
  } else {
    gate_.abandon();
  }
}

void ZkSemaphoreLease::release() {
  if (!granted_) throw ProtocolError("ZkSemaphoreLease::release without a grant on " + leases_path_);
  const std::string lease = lease_path_;
  granted_ = false;
  lease_path_.clear();
  lease_name_.clear();
  delete_held(session_, lease, "lease");
}

std::vector<QueuedNode> ZkSemaphoreLease::queued_nodes() const {
  std::vector<QueuedNode> nodes = gate_.queued_nodes();
  nodes.push_back({leases_path_, lease_prefix_});
  return nodes;
}

bool ZkSemaphoreLease::acquire(std::chrono::milliseconds wait) {
  return wait_for_grant(session_, *this, wait);
}

}  // namespace zk
}  // namespace dlock
