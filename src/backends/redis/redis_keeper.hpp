// The watchdog's Redis half: renews holds with their renewal scripts in one
// pipelined round trip per node (Router::batches: one in all outside a
// Cluster; each node's batch runs on its own, so a node that stalls delays
// only its own holds), and settles pending requests on their name's node.
#pragma once

#include <chrono>
#include <future>
#include <map>

#include "backends/redis/net/router.hpp"
#include "core/hold_keeper.hpp"

namespace dlock {

class RedisKeeper final : public HoldKeeper {
 public:
  RedisKeeper(Router& router, const ClientConfig& config);
  ~RedisKeeper() override { wait_for_renewals(); }
  RedisKeeper(const RedisKeeper&) = delete;
  RedisKeeper& operator=(const RedisKeeper&) = delete;

  void renew(const std::vector<Hold>& due, Clock::time_point sent_at, Clock::time_point deadline,
             const ReportSink& sink) override;
  void wait_for_renewals() override { in_flight_.clear(); }
  int64_t settle(const PendingRequest& request, Clock::time_point deadline) override;

 private:
  // One node's pipeline, for `holds`.
  Report renew_on_node(ConnectionPool& pool, const std::vector<Hold>& holds, Clock::time_point sent_at,
                       Clock::time_point deadline);
  // A renewal answered with MOVED or ASK, sent again where it points.
  Reply renew_redirected(const Hold& hold, const RedirectError& redirect, Clock::time_point deadline);

  Router& router_;
  const std::chrono::milliseconds command_timeout_;
  // Cluster: each node's batch still running, by its pool (renew()'s caller only).
  std::map<ConnectionPool*, std::future<void>> in_flight_;
};

}  // namespace dlock
