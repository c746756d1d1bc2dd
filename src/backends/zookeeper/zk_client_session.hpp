// A client core's session on ZooKeeper (core/backend_session.hpp): one
// ZooKeeper session, whose ephemeral nodes are the core's holds, and the
// keeper that checks them. The session replaces a lease: a hold lasts while
// the session does, and the watchdog counts it lost once the server may have
// expired the session (no answer within two thirds of its timeout: the
// client's watchdog lease, docs/zookeeper.md). A session the server expired
// is replaced by a new one to the same ensemble with the same options (hosts,
// chroot, credentials) when it is next asked for: the old one's holds are
// lost (its nodes went with it) and never carried over.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "backends/zookeeper/zk_keeper.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "backends/zookeeper/zk_url.hpp"
#include "core/backend_session.hpp"
#include "core/client_core.hpp"

namespace dlock {

class ZkClientSession final : public BackendSession {
 public:
  // Connects to `url` with `config`'s timeouts (zk_client_config); throws
  // ZkSession's errors: ConnectionError, AuthError, InvalidArgument for a
  // chroot that does not exist.
  ZkClientSession(const zk::ZkUrl& url, const ClientConfig& config);

  const char* scheme() const override { return "zookeeper"; }
  const std::string& describe() const override { return server_; }
  HoldKeeper& keeper() override { return keeper_; }
  // Two thirds of the timeout the server granted: a hold is trusted no longer
  // than that after the server last answered (the specification, section 12).
  int64_t watchdog_lease_ms(int64_t configured) const override;
  void start(std::function<void()> check_holds_now) override;
  // Waits for the session to be connected, within the command timeout.
  void ping() override;
  // Deletes the hold's node.
  void release(const Hold& hold, const std::string& request_id, int64_t latch_ms,
               std::optional<Clock::time_point> once_before) override;
  uint64_t reconnects() const override { return reconnects_.load(); }
  void begin_close() override { closing_.store(true); }
  // Ends the session: whatever it still holds goes with it.
  void close() override;

  // The session of the moment; when the server expired it, a new one opened
  // first (the caller waits for it, up to the connect timeout). Throws
  // ConnectionError saying why when none could be opened: the next call
  // tries again. Callers keep the pointer for as long as they
  // use the session: a replaced one lives on until the last lets it go.
  std::shared_ptr<zk::ZkSession> zk();

 private:
  // On the C client's completion thread: records and signals only.
  void on_state_change(zk::SessionState state);
  std::shared_ptr<zk::ZkSession> open_session();
  // The session of the moment without replacing it: the keeper's, since an
  // expired session holds nothing (zk_nodes' still_held says so at once).
  std::shared_ptr<zk::ZkSession> current() const;

  const std::string server_;
  const zk::SessionOptions options_;
  std::mutex check_mutex_;
  std::function<void()> check_holds_now_;  // set by start()
  std::atomic<uint64_t> reconnects_{0};
  std::atomic<bool> was_suspended_{false};
  std::atomic<bool> closing_{false};
  mutable std::mutex session_mutex_;  // over session_; held while a replacement opens
  std::shared_ptr<zk::ZkSession> session_;
  ZkKeeper keeper_;
};

// The ZooKeeper session of `core` (ZkClientSession::zk()); `core` is a ZooKeeper client's.
std::shared_ptr<zk::ZkSession> zk_session(ClientCore& core);

// The client's ClientConfig for `url`: the general settings of `base` (from
// the C options) with the URL's timeouts over them.
ClientConfig zk_client_config(ClientConfig base, const zk::ZkUrl& url);

}  // namespace dlock
