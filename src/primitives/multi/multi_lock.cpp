#include "primitives/multi/multi_lock.hpp"

#include "common/error.hpp"
#include "primitives/multi/group_attempts.hpp"
#include "primitives/multi/member_checks.hpp"

namespace dlock {

MultiLock::MultiLock(std::vector<std::shared_ptr<LockMember>> members)
    : group_(distinct_members(std::move(members), 1), MemberGroup::Needed::all, "MultiLock") {}

namespace {

// The MultiLock's side of a wait. An attempt that fails leaves no member
// held, and the wait watches the member that refused.
class MultiLockAcquire final : public GroupAttempts {
 public:
  MultiLockAcquire(MemberGroup& group, const GroupRequest& request)
      : GroupAttempts(group, "MultiLock", request) {}

  Outcome attempt(int64_t /*wait_left_ms*/, bool /*woken_by_message*/) override {
    if (!started_) {
      started_ = true;
      if (group_.reenter(request_.owner)) return {true, std::nullopt};
    }
    const auto& members = group_.members();
    std::vector<bool> taken(members.size(), false);
    busy_.assign(members.size(), false);
    for (size_t i = 0; i < members.size(); ++i) {
      LockMember::Outcome outcome;
      try {
        outcome = members[i]->try_once(request_.owner, request_.lease_ms, group_.member_callback(i));
      } catch (const ConnectionError&) {
        group_.release_members(request_.owner, taken);
        members[i]->release_unrecorded(request_.owner);  // its reply may be what was lost
        throw;
      } catch (...) {
        group_.release_members(request_.owner, taken);
        throw;
      }
      if (!outcome.granted) {
        group_.release_members(request_.owner, taken);
        busy_[i] = true;
        // Until the holder's lease ends: a crashed holder publishes nothing.
        if (outcome.holder_ttl_ms >= 0) return {false, std::chrono::milliseconds(outcome.holder_ttl_ms)};
        return {false, std::nullopt};
      }
      taken[i] = true;
    }
    group_.record(request_.owner, std::move(taken), std::nullopt);
    return {true, std::nullopt};
  }

 private:
  bool started_ = false;
};

}  // namespace

std::shared_ptr<WaitProcess> MultiLock::acquire_wait(const GroupRequest& request) {
  auto acquire = std::make_shared<MultiLockAcquire>(group_, request);
  return std::make_shared<WaitProcess>(acquire, acquire->spec());
}

}  // namespace dlock
