#include "primitives/multi/red_lock.hpp"

#include <algorithm>
#include <random>

#include "common/error.hpp"
#include "primitives/multi/group_attempts.hpp"
#include "primitives/multi/member_checks.hpp"

namespace dlock {
namespace {

using std::chrono::milliseconds;

// How long one member may take to answer: short against the lease (Redis's
// description of the algorithm suggests 5-50 ms for a 10 s lease), so a
// paused server costs the attempt little.
milliseconds patience(int64_t lease_ms) {
  return milliseconds(std::clamp<int64_t>(lease_ms / 20, 50, 1000));
}

// How long a release waits for each member.
constexpr milliseconds release_patience{1000};

// The clocks' possible disagreement over a lease (Redis's RedLock description).
int64_t drift_ms(int64_t lease_ms) {
  return lease_ms / 100 + 2;
}

milliseconds random_between(int64_t low_ms, int64_t high_ms) {
  thread_local std::mt19937 generator{std::random_device{}()};
  return milliseconds(std::uniform_int_distribution<int64_t>(low_ms, high_ms)(generator));
}

// After a wake-up, before the next round: contenders that split the vote
// spread out. Short against a hand-off's round trips.
constexpr int64_t max_jitter_ms = 4;
// When no member refused (those that failed could not answer), nothing will
// publish: try again after this long (reconnecting, never a busy loop).
constexpr int64_t unreachable_retry_min_ms = 50;
constexpr int64_t unreachable_retry_max_ms = 200;

std::vector<std::shared_ptr<LockMember>> checked(std::vector<std::shared_ptr<LockMember>> members) {
  members = distinct_members(std::move(members), 3);
  require_independent_servers(members);
  return members;
}

}  // namespace

RedLock::RedLock(std::vector<std::shared_ptr<LockMember>> members)
    : group_(checked(std::move(members)), MemberGroup::Needed::majority, "RedLock") {}

RedLock::Round RedLock::attempt(const GroupRequest& request) {
  const auto& members = group_.members();
  const size_t n = members.size();
  int64_t lease_ms = request.lease_ms;
  if (lease_ms < 0) {
    lease_ms = members[0]->watchdog_lease_ms();
    for (const auto& member : members) lease_ms = std::min(lease_ms, member->watchdog_lease_ms());
  }
  std::vector<std::shared_ptr<LockMember>> copies = members;
  std::vector<std::shared_ptr<LostCallback>> callbacks;
  for (size_t i = 0; i < n; ++i) callbacks.push_back(group_.member_callback(i));
  const uint64_t owner = request.owner;
  const int64_t lease_arg = request.lease_ms;

  const Clock::time_point started = Clock::now();  // before the first request leaves
  const std::vector<MemberAnswer> answers = calls_.call(
      owner, std::vector<bool>(n, true),
      [copies, callbacks, owner, lease_arg](size_t i) {
        return copies[i]->try_once(owner, lease_arg, callbacks[i]);
      },
      [copies, owner](size_t i, const MemberAnswer& late) {
        // Nobody counted this answer: let go of whatever it may have granted.
        if (late.error) {
          copies[i]->release_unrecorded(owner);
        } else if (late.outcome.granted) {
          try {
            copies[i]->release(owner);
          } catch (...) {
            // Lost or unreachable: its lease runs out on its own.
          }
        }
      },
      patience(lease_ms));
  const int64_t elapsed_ms = std::chrono::duration_cast<milliseconds>(Clock::now() - started).count();

  Round round;
  round.granted.assign(n, false);
  round.busy.assign(n, false);
  size_t granted = 0;
  for (size_t i = 0; i < n; ++i) {
    const MemberAnswer& answer = answers[i];
    if (!answer.answered) continue;
    if (answer.error) {
      if (!round.error) round.error = answer.error;
      continue;
    }
    ++round.reachable;
    if (answer.outcome.granted) {
      round.granted[i] = true;
      ++granted;
    } else {
      round.busy[i] = true;
      const int64_t ttl = answer.outcome.holder_ttl_ms;
      if (ttl >= 0 && (round.shortest_holder_ttl_ms < 0 || ttl < round.shortest_holder_ttl_ms)) {
        round.shortest_holder_ttl_ms = ttl;
      }
    }
  }
  const int64_t validity = lease_ms - elapsed_ms - drift_ms(lease_ms);
  if (granted >= group_.needed() && validity > 0) {
    round.validity_ms = validity;
    round.deadline = started + milliseconds(lease_ms - drift_ms(lease_ms));
    return round;
  }
  undo(owner, answers);
  return round;
}

void RedLock::undo(uint64_t owner, const std::vector<MemberAnswer>& answers) {
  const auto& members = group_.members();
  std::vector<bool> touched(members.size(), false);
  // Which calls failed, not their errors: an exception_ptr shared with the
  // member threads would be freed on one of them (TSan cannot see the
  // reference count's ordering inside libstdc++ and reports a race).
  std::vector<bool> failed(members.size(), false);
  for (size_t i = 0; i < members.size(); ++i) {
    touched[i] = answers[i].answered && (answers[i].error || answers[i].outcome.granted);
    failed[i] = static_cast<bool>(answers[i].error);
  }
  std::vector<std::shared_ptr<LockMember>> copies = members;
  calls_.call(
      owner, touched,
      [copies, failed, owner](size_t i) {
        if (failed[i]) {
          copies[i]->release_unrecorded(owner);  // its reply may be what was lost
        } else {
          copies[i]->release(owner);
        }
        return LockMember::Outcome{};
      },
      [](size_t, const MemberAnswer&) {}, patience(0));
}

bool RedLock::ran_out(const Round& last) const {
  const size_t n = group_.members().size();
  if (last.reachable < group_.needed() && last.error) {
    try {
      std::rethrow_exception(last.error);
    } catch (const ConnectionError& error) {
      throw ConnectionError("RedLock '" + group_.name() + "': only " + std::to_string(last.reachable) +
                            " of " + std::to_string(n) + " members answered, " +
                            std::to_string(group_.needed()) + " needed; first error: " + error.what());
    }
  }
  return false;
}

// The RedLock's side of a wait: it watches every member that refused, and
// retries after a short random pause, so two contenders that split the vote
// do not collide again.
class RedLockAcquire final : public GroupAttempts {
 public:
  RedLockAcquire(RedLock& lock, const GroupRequest& request)
      : GroupAttempts(lock.group_, "RedLock", request), lock_(lock) {}

  std::optional<int64_t> validity_ms() const { return validity_ms_; }

  Outcome attempt(int64_t /*wait_left_ms*/, bool /*woken_by_message*/) override {
    if (!started_) {
      started_ = true;
      if (group_.reenter(request_.owner)) {
        validity_ms_ = lock_.validity_ms(request_.owner);
        return {true, std::nullopt};
      }
    }
    last_ = lock_.attempt(request_);
    if (last_.validity_ms) {
      std::optional<Clock::time_point> group_deadline;
      if (request_.lease_ms > 0) group_deadline = last_.deadline;
      group_.record(request_.owner, last_.granted, group_deadline);
      validity_ms_ = last_.validity_ms;
      return {true, std::nullopt};
    }
    busy_ = last_.busy;
    if (std::none_of(busy_.begin(), busy_.end(), [](bool busy) { return busy; })) {
      return {false, random_between(unreachable_retry_min_ms, unreachable_retry_max_ms)};
    }
    // Until the earliest holder's lease ends: a crashed holder publishes nothing.
    if (last_.shortest_holder_ttl_ms >= 0) return {false, milliseconds(last_.shortest_holder_ttl_ms)};
    return {false, std::nullopt};
  }
  milliseconds pause_before_retry() override { return random_between(0, max_jitter_ms); }
  void ran_out() override { lock_.ran_out(last_); }

 private:
  RedLock& lock_;
  bool started_ = false;
  RedLock::Round last_;
  std::optional<int64_t> validity_ms_;
};

std::shared_ptr<WaitProcess> RedLock::acquire_wait(const GroupRequest& request) {
  auto acquire = std::make_shared<RedLockAcquire>(*this, request);
  return std::make_shared<WaitProcess>(acquire, acquire->spec());
}

std::optional<int64_t> RedLock::acquire(const GroupRequest& request) {
  auto acquire = std::make_shared<RedLockAcquire>(*this, request);
  if (!WaitProcess(acquire, acquire->spec()).run()) return std::nullopt;
  return acquire->validity_ms();
}

void RedLock::release(uint64_t owner) {
  // In parallel, as the acquire: a paused or lost server costs the release
  // its patience, not the command timeout; its lease runs out on its own.
  group_.release(owner, [this](uint64_t who, const std::vector<bool>& held) {
    std::vector<std::shared_ptr<LockMember>> copies = group_.members();
    const std::vector<MemberAnswer> answers = calls_.call(
        who, held,
        [copies, who](size_t i) {
          copies[i]->release(who);
          return LockMember::Outcome{true, -1};
        },
        [](size_t, const MemberAnswer&) {}, release_patience);
    MemberGroup::MembersReleased tally;
    for (size_t i = 0; i < held.size(); ++i) {
      if (!held[i]) continue;
      MemberGroup::count_release(tally, [&] {
        if (!answers[i].answered) {
          throw ConnectionError("release '" + copies[i]->name() + "' on " + copies[i]->server() +
                                ": no answer within " + std::to_string(release_patience.count()) + " ms");
        }
        if (answers[i].error) std::rethrow_exception(answers[i].error);
      });
    }
    return tally;
  });
}

int64_t RedLock::validity_ms(uint64_t owner) {
  const std::optional<Clock::time_point> end = group_.valid_until(owner);
  if (!end) return 0;
  return std::max<int64_t>(0, std::chrono::duration_cast<milliseconds>(*end - Clock::now()).count());
}

}  // namespace dlock
