// The watchdog's backend half (docs/design/backends.md, 1.3): the round trips
// that renew holds and settle pending requests. The watchdog
// (core/watchdog.hpp) decides when and what a round trip's answer means for
// each hold; a keeper knows how to make the round trips on its backend.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/holds.hpp"
#include "core/pending_requests.hpp"

namespace dlock {

class HoldKeeper {
 public:
  struct Renewal {
    Hold hold;
    bool still_owned;  // false: found gone or held by another owner
  };
  // What one round trip of renewals found (Redis: one node's pipeline).
  struct Report {
    Clock::time_point sent_at;
    std::vector<Renewal> answered;  // in the order they were sent
    std::vector<Hold> unanswered;   // to be tried again soon
    bool went_through = false;      // the round trip was made (some holds may still be unanswered)
    // Why the round trip failed (then every hold is unanswered); nullopt when
    // it went through, or when it was not tried (a node still busy).
    std::optional<std::string> failure;
  };
  using ReportSink = std::function<void(Report)>;

  virtual ~HoldKeeper() = default;

  // Renews `due` (each with its lease), sent at `sent_at`; no round trip runs
  // past `deadline`. Every hold of `due` is in exactly one report given to
  // `sink`, on this thread or, for a round trip that runs on its own (one
  // per Cluster node), later on another.
  virtual void renew(const std::vector<Hold>& due, Clock::time_point sent_at, Clock::time_point deadline,
                     const ReportSink& sink) = 0;
  // Waits for the round trips still out: their reports were given when it returns.
  virtual void wait_for_renewals() = 0;

  // One round trip of `request`'s settle, within `deadline`; its answer.
  // Throws Error when it did not go through.
  virtual int64_t settle(const PendingRequest& request, Clock::time_point deadline) = 0;
};

}  // namespace dlock
