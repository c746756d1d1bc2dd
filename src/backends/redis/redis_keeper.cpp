#include "backends/redis/redis_keeper.hpp"

#include <deque>
#include <string>
#include <utility>

#include "backends/redis/redis_held.hpp"
#include "common/error.hpp"

namespace dlock {
RedisKeeper::RedisKeeper(Router& router, const ClientConfig& config)
    : router_(router), command_timeout_(config.command_timeout_ms) {}

void RedisKeeper::renew(const std::vector<Hold>& due, Clock::time_point sent_at, Clock::time_point deadline,
                        const ReportSink& sink) {
  std::vector<std::string_view> names;
  for (const Hold& hold : due) names.push_back(hold.resource->name());
  std::vector<Router::Batch> batches;
  try {
    batches = router_.batches(names, sent_at + command_timeout_);
  } catch (const Error& error) {
    sink(Report{sent_at, {}, due, false, error.what()});
    return;
  }
  if (batches.size() == 1 && in_flight_.empty()) {
    sink(renew_on_node(*batches.front().pool, due, sent_at, deadline));
    return;
  }
  for (const Router::Batch& batch : batches) {
    std::vector<Hold> holds;
    for (std::size_t i : batch.items) holds.push_back(due[i]);
    std::future<void>& previous = in_flight_[batch.pool];
    if (previous.valid() && previous.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      // That node has not answered the last batch yet: these wait for it.
      sink(Report{sent_at, {}, std::move(holds), false, std::nullopt});
      continue;
    }
    previous =
        std::async(std::launch::async, [this, pool = batch.pool, holds = std::move(holds), sent_at, deadline,
                                        sink] { sink(renew_on_node(*pool, holds, sent_at, deadline)); });
  }
}

HoldKeeper::Report RedisKeeper::renew_on_node(ConnectionPool& pool, const std::vector<Hold>& holds,
                                              Clock::time_point sent_at, Clock::time_point deadline) {
  Report report{sent_at, {}, {}, false, std::nullopt};
  try {
    ConnectionPool::Lease connection = pool.acquire(sent_at + command_timeout_);
    // A timed-out connection is dropped: a stalled server or a partition
    // keeps the batch no longer than its deadline.
    const TimeLimit limit(*connection, deadline, command_timeout_);
    // Every script is loaded before the pipeline starts: a SCRIPT LOAD in
    // the middle would read another command's reply.
    std::vector<std::string> shas;
    for (const Hold& hold : holds) shas.push_back(redis_held(hold).renewal_script().loaded_sha(*connection));
    std::deque<std::string> leases;
    std::deque<Script::Call> calls;
    for (std::size_t i = 0; i < holds.size(); ++i) {
      leases.push_back(std::to_string(holds[i].lease_ms));
      calls.emplace_back(shas[i], redis_held(holds[i]).renewal_keys(),
                         Argv{leases.back(), holds[i].grant.owner_field});
      connection->append(calls.back().argv());
    }
    std::vector<Reply> replies;
    for (std::size_t i = 0; i < holds.size(); ++i) replies.push_back(connection->read_reply());
    report.went_through = true;
    // Only now, with no reply pending, may a NOSCRIPT be answered with EVAL.
    for (std::size_t i = 0; i < holds.size(); ++i) {
      const Hold& hold = holds[i];
      const std::string what = "renew '" + hold.resource->name() + "'";
      bool still_owned = false;
      try {
        try {
          still_owned = redis_held(hold)
                            .renewal_script()
                            .finish(*connection, calls[i], std::move(replies[i]))
                            .integer_is_one(what);
        } catch (const RedirectError& redirect) {
          still_owned = renew_redirected(hold, redirect, deadline).integer_is_one(what);
        }
      } catch (const ProtocolError&) {
        // The key is no longer a lock (e.g. replaced by another type): not ours.
      } catch (const Error&) {
        router_.suspect_map();  // a slot that moved or a node that failed: asked for again
        report.unanswered.push_back(hold);
        continue;
      }
      report.answered.push_back({hold, still_owned});
    }
  } catch (const Error& error) {
    // Redis unreachable: the holds stay valid until their deadline.
    router_.suspect_map();
    return Report{sent_at, {}, holds, false, error.what()};
  }
  return report;
}

Reply RedisKeeper::renew_redirected(const Hold& hold, const RedirectError& redirect,
                                    Clock::time_point deadline) {
  ConnectionPool::Lease connection = router_.follow(redirect, deadline);
  const TimeLimit limit(*connection, deadline, command_timeout_);
  const std::string lease = std::to_string(hold.lease_ms);
  return redis_held(hold).renewal_script().run(*connection, redis_held(hold).renewal_keys(),
                                              {lease, hold.grant.owner_field});
}

int64_t RedisKeeper::settle(const PendingRequest& request, Clock::time_point deadline) {
  try {
    return request.settle(deadline);
  } catch (const Error&) {
    router_.suspect_map();
    throw;
  }
}

}  // namespace dlock
