#include "primitives/multi/member_calls.hpp"

#include <condition_variable>

namespace dlock {
namespace {

struct Round {
  std::mutex mutex;
  std::condition_variable answered;
  std::vector<MemberAnswer> answers;
  size_t pending = 0;
  bool abandoned = false;  // the caller stopped waiting: answers from now on are late
};

}  // namespace

std::vector<MemberAnswer> MemberCalls::call(uint64_t owner, const std::vector<bool>& run, Call call,
                                            Late late, std::chrono::milliseconds patience) {
  auto round = std::make_shared<Round>();
  round->answers.resize(run.size());
  std::vector<size_t> started;
  {
    std::lock_guard<std::mutex> lock(in_flight_->mutex);
    for (size_t i = 0; i < run.size(); ++i) {
      if (run[i] && in_flight_->calls.insert({i, owner}).second) started.push_back(i);
    }
  }
  round->pending = started.size();
  for (size_t i : started) {
    // The task owns what it uses: a call on a paused server may outlive the
    // round and the caller.
    workers_[i].post([round, i, owner, call, late, in_flight = in_flight_] {
      MemberAnswer answer;
      answer.answered = true;
      try {
        answer.outcome = call(i);
      } catch (...) {
        answer.error = std::current_exception();
      }
      bool is_late;
      {
        std::lock_guard<std::mutex> lock(round->mutex);
        is_late = round->abandoned;
        if (!is_late) {
          // Moved, as the answers are to the caller below: an error's
          // exception_ptr is then never freed on a member thread after the
          // caller read it (an order TSan cannot see inside libstdc++).
          round->answers[i] = std::move(answer);
          // Out of flight before the caller hears: it may call this member again at once.
          std::lock_guard<std::mutex> flight_lock(in_flight->mutex);
          in_flight->calls.erase({i, owner});
        }
        --round->pending;
      }
      round->answered.notify_one();
      if (!is_late) return;
      late(i, answer);
      std::lock_guard<std::mutex> flight_lock(in_flight->mutex);
      in_flight->calls.erase({i, owner});
    });
  }
  std::unique_lock<std::mutex> lock(round->mutex);
  round->answered.wait_for(lock, patience, [&] { return round->pending == 0; });
  round->abandoned = true;
  return std::move(round->answers);
}

}  // namespace dlock
