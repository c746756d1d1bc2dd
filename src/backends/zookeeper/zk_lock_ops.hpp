// A lock kind's operations on ZooKeeper (core/lock_ops.hpp), over Curator's
// layouts (zk_lock_layout.hpp: InterProcessMutex, InterProcessReadWriteLock's
// sides, InterProcessSemaphoreMutex) at zk_paths' lock_path(name). A grant is
// our node: GrantRef::locator its path, the token its czxid. A hold lasts as
// long as the session: no fixed leases, nothing to extend or keep; the
// watchdog's renewal is the keeper's check that the node is still ours
// (zk_keeper.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "backends/zookeeper/zk_lock_wait.hpp"
#include "backends/zookeeper/zk_lock_layout.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "core/backend.hpp"
#include "core/lock_ops.hpp"

namespace dlock {

// The deletes of releases whose answer was lost, by request id, with the
// session they were sent on: the retry of one that finds the node gone while
// that session lives answers "released". Entries go when settled, or after
// their latch.
class ZkDeletesInDoubt {
 public:
  void sent(const std::string& request_id, std::int64_t session_id, std::chrono::milliseconds latch);
  // Whether `request_id`'s delete was sent on `session_id`; forgets it.
  bool take(const std::string& request_id, std::int64_t session_id);

 private:
  struct Entry {
    std::int64_t session_id;
    std::chrono::steady_clock::time_point until;
  };
  std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

class ZkLockOps final : public LockOps {
 public:
  // The client's session of the moment: a handle outlives fork(), and after
  // an expiry the client opens a new session. Each call asks for it again;
  // a wait keeps the one it queued on, until that one expires.
  using SessionOf = std::function<std::shared_ptr<zk::ZkSession>()>;
  // What an owner's queued nodes hold; none given: its owner field (what
  // dlock status shows of a holder).
  using NodeData = std::function<std::string(const std::string& owner_field)>;

  // Throws InvalidArgument for a name zk_paths refuses.
  ZkLockOps(SessionOf session, std::string name, LockKind kind);
  ZkLockOps(SessionOf session, std::string name, ZkLockLayout layout, NodeData node_data = {});

  const char* backend() const override { return "zookeeper"; }
  bool fixed_leases() const override { return false; }
  bool reentrant() const override { return layout_.reentrant(); }
  const std::string& name() const override { return name_; }
  const std::string& hold_key() const override { return layout_.hold_key(); }
  // Who holds it, for dlock status (the node's data unless NodeData says otherwise).
  std::string hold_field(const std::string& client_field) const override { return client_field; }
  std::shared_ptr<const HeldResource> held() const override { return held_; }
  const std::string& path() const { return layout_.path(); }

  std::unique_ptr<LockWait> begin(const std::string& owner_field, int64_t lease_ms) override;
  // A child watch on the holders' path, set again each time it fires.
  std::unique_ptr<WaitWatch> watch_releases(Waiter& waiter) override;
  // Deletes the node at grant.locator if its czxid is grant.token. Without a
  // locator (a withdrawal): the owner's nodes of the wait still running or
  // just ended, by their protected prefixes; nothing when none is known.
  bool release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) override;
  Settle settle_release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) override;
  // Throws UnsupportedError: the session, not a lease, keeps the hold.
  Extension extend(const GrantRef& grant, int64_t lease_ms) override;
  bool keeps() const override { return false; }
  bool release_keeping(const GrantRef& grant, int64_t keep_ms) override;
  // Deletes every node under the holders' path: the holder's and the
  // waiters' there (who queue again). Whether there was one.
  bool force_release() override;
  bool is_locked() override;
  // -1 while held (no lease), -2 when not.
  int64_t ttl_ms() override;
  // The path's holders (holders_among: for a read-write lock, whichever side
  // holds) with the owner field their nodes carry (a Curator node's data is
  // its own: its client's address), hold count 1 (re-entry is counted in the
  // client), and the newest holder's creation zxid as the last token: one
  // listing, then the holders' data in one pipelined round trip.
  LockInspection inspect() override;
  // The note goes in the holder's node's data beside its owner field
  // (HolderNote::stored), where inspect() and holder_note() read it. Not on
  // an election's leadership, whose nodes carry the leader's value.
  bool note_holder(const std::string& field, const std::string& note) override;
  std::optional<HolderNote> holder_note() override;

 private:
  // A holder's node as inspect() and the notes read it.
  struct HolderNode {
    std::string path;
    HolderNote data;  // the owner field, and the note when one was recorded
    std::uint64_t czxid = 0;
  };
  std::vector<HolderNode> holder_nodes(zk::ZkSession& session) const;

  const SessionOf session_;
  const std::string name_;
  const ZkLockLayout layout_;
  const NodeData node_data_;
  const std::shared_ptr<const HeldResource> held_;
  const std::shared_ptr<ZkUnheardNodes> unheard_ = std::make_shared<ZkUnheardNodes>();
  const std::shared_ptr<ZkDeletesInDoubt> in_doubt_ = std::make_shared<ZkDeletesInDoubt>();
};

}  // namespace dlock
