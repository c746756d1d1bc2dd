// The holds of a client in session mode (docs/design/backends.md 3.4): each a
// SessionLock on a connection pinned for its life, kept here under its
// locator (its token's text) from the grant to the release, and the keeper
// that watches them: a hold is owned while its pinned session lives, and lost
// the moment that session ends (the server freed the name). Nothing to renew.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/sql/session_lock.hpp"
#include "core/hold_keeper.hpp"

namespace dlock {
namespace sql {

class SessionHolds {
 public:
  // Keeps a granted lock; its locator.
  std::string add(std::unique_ptr<SessionLock> lock);
  // The lock kept under `locator`, no longer kept; nullptr when none is.
  std::unique_ptr<SessionLock> take(const std::string& locator);
  // Whether the hold under `locator` is gone: its session ended, or it is
  // not kept (released). No round trip while its socket is quiet.
  bool lost(const std::string& locator);
  // Every lock still kept, no longer kept (the client closing).
  std::vector<std::unique_ptr<SessionLock>> take_all();

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<SessionLock>> locks_;
};

// The watchdog's half for session mode: each due hold is reported owned
// while its pinned session lives.
class SessionKeeper final : public HoldKeeper {
 public:
  explicit SessionKeeper(SessionHolds& holds) : holds_(holds) {}

  void renew(const std::vector<Hold>& due, Clock::time_point sent_at, Clock::time_point deadline,
             const ReportSink& sink) override;
  void wait_for_renewals() override {}
  int64_t settle(const PendingRequest& request, Clock::time_point deadline) override {
    return request.settle(deadline);
  }

 private:
  SessionHolds& holds_;
};

}  // namespace sql
}  // namespace dlock
