#include "backends/sql/session_holds.hpp"

#include <utility>

namespace dlock {
namespace sql {

std::string SessionHolds::add(std::unique_ptr<SessionLock> lock) {
  std::string locator = std::to_string(lock->token());
  std::lock_guard<std::mutex> guard(mutex_);
  locks_[locator] = std::move(lock);
  return locator;
}

std::unique_ptr<SessionLock> SessionHolds::take(const std::string& locator) {
  std::lock_guard<std::mutex> guard(mutex_);
  const auto found = locks_.find(locator);
  if (found == locks_.end()) return nullptr;
  std::unique_ptr<SessionLock> lock = std::move(found->second);
  locks_.erase(found);
  return lock;
}

bool SessionHolds::lost(const std::string& locator) {
  // Under the mutex: a release takes the lock out first, so no two threads use it at once.
  std::lock_guard<std::mutex> guard(mutex_);
  const auto found = locks_.find(locator);
  return found == locks_.end() || found->second->lost();
}

std::vector<std::unique_ptr<SessionLock>> SessionHolds::take_all() {
  std::lock_guard<std::mutex> guard(mutex_);
  std::vector<std::unique_ptr<SessionLock>> all;
  for (auto& entry : locks_) all.push_back(std::move(entry.second));
  locks_.clear();
  return all;
}

void SessionKeeper::renew(const std::vector<Hold>& due, Clock::time_point sent_at,
                          Clock::time_point /*deadline*/, const ReportSink& sink) {
  if (due.empty()) return;
  Report report{sent_at, {}, {}, true, std::nullopt};
  report.answered.reserve(due.size());
  for (const Hold& hold : due) report.answered.push_back({hold, !holds_.lost(hold.grant.locator)});
  sink(std::move(report));
}

}  // namespace sql
}  // namespace dlock
