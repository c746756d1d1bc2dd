// The watchdog's ZooKeeper half (core/hold_keeper.hpp). A hold lasts as long
// as the session and its node; a "renewal" checks that each due hold's node
// (GrantRef::locator, with the czxid GrantRef::token) is still this session's,
// all of them in one pipelined round trip (zk_nodes' still_held), whose answer
// also confirms the session alive from its send time. Pending requests (a
// release, a withdrawal) are settled by their own Settle.
#pragma once

#include <functional>
#include <memory>

#include "backends/zookeeper/zk_session.hpp"
#include "core/hold_keeper.hpp"

namespace dlock {

class ZkKeeper final : public HoldKeeper {
 public:
  // `session` as ZkLockOps takes it: the client's session of the moment
  // (after an expiry, the new one: the old session's nodes are then not
  // found as its own, and the holds are lost).
  explicit ZkKeeper(std::function<std::shared_ptr<zk::ZkSession>()> session) : session_(std::move(session)) {}

  // One report, on this thread. `deadline` is not used: the one round trip is
  // bounded by the session's command timeout.
  void renew(const std::vector<Hold>& due, Clock::time_point sent_at, Clock::time_point deadline,
             const ReportSink& sink) override;
  // Nothing runs on its own.
  void wait_for_renewals() override {}
  int64_t settle(const PendingRequest& request, Clock::time_point deadline) override;

 private:
  const std::function<std::shared_ptr<zk::ZkSession>()> session_;
};

}  // namespace dlock
