// One owner's lease of Curator's InterProcessSemaphoreV2 (and so of its
// InterProcessSemaphoreMutex, the same with one lease), node for node as
// Curator lays it out (docs/design/backends.md 2.1): a waiter first takes the
// path's gate, an InterProcessMutex on <path>/locks; holding it, creates
// <path>/leases/_c_<uuid>-lease-<seq10> (EPHEMERAL_SEQUENTIAL) and lists the
// leases with a child watch until at most `max_leases` exist; then lets the
// gate go. So waiters queue on the gate, first come first served, and only the
// gate's holder watches the leases. The fencing token is the lease's czxid.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "backends/zookeeper/zk_mutex.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "backends/zookeeper/zk_wait.hpp"
#include "backends/zookeeper/zk_watches.hpp"

namespace dlock {
namespace zk {

class ZkSemaphoreLease : public ZkWait {
 public:
  // `path` as zk_paths' lock_path() made it; `max_leases` >= 1 (Curator's
  // maxLeases, which every participant must agree on).
  ZkSemaphoreLease(ZkSession& session, std::string path, int max_leases, std::string node_data = {});
  ~ZkSemaphoreLease() override;  // abandon() unless granted: a granted lease is the caller's to release()
  ZkSemaphoreLease(const ZkSemaphoreLease&) = delete;
  ZkSemaphoreLease& operator=(const ZkSemaphoreLease&) = delete;

  ZkCheck begin() override;
  ZkCheck attempt() override;
  // Waiting for the gate: a data watch on the gate's predecessor; holding it: a
  // child watch on the leases.
  void watch(std::function<void()> signal) override;
  void abandon() noexcept override;
  // Deletes our (granted) lease; throws LostError when it was gone already.
  void release();

  // wait_for_grant() on this lease.
  bool acquire(std::chrono::milliseconds wait);

  const std::string& node_path() const override { return lease_path_; }
  // The gate's node and the lease.
  std::vector<QueuedNode> queued_nodes() const override;
  std::uint64_t token() const { return token_; }
  const std::string& leases_path() const { return leases_path_; }

 private:
  // With the gate held: creates our lease once, lists the leases (leaving a
  // child watch for `watch_id` when nonzero) and says whether they number at
  // most max_leases, as Curator counts. Throws LostError when ours is gone.
  bool counted_in(WatchRegistry::Id watch_id);
  ZkCheck granted();
  void drop_watch() noexcept;

  ZkSession& session_;
  std::string leases_path_;
  std::size_t max_leases_;
  std::string node_data_;
  std::string lease_prefix_;
  ZkMutex gate_;
  bool gate_held_ = false;
  std::string lease_path_;
  std::string lease_name_;
  std::uint64_t token_ = 0;
  WatchRegistry::Id watch_id_ = 0;
  bool granted_ = false;
};

}  // namespace zk
}  // namespace dlock
