#include "supervision.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

namespace dlock_cli {
namespace {

using Clock = std::chrono::steady_clock;

bool is_stop_signal(int signal) { return signal == SIGINT || signal == SIGTERM; }

}  // namespace

Outcome supervise(ChildProcess& child, const Supervision& supervision, SignalWaiter& signals, Notice& lost) {
  Outcome outcome;
  std::optional<Clock::time_point> kill_at;
  const auto arm_kill = [&] {
    if (!kill_at) kill_at = Clock::now() + std::chrono::milliseconds(supervision.grace_ms);
  };
  bool killed = false;
  for (;;) {
    int64_t timeout_ms = -1;
    if (kill_at && !killed) {
      timeout_ms = std::max<int64_t>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(*kill_at - Clock::now()).count());
    }
    const Wakeup wakeup = signals.wait(lost, timeout_ms);
    if (wakeup.signal == SIGCHLD) {
      if (const std::optional<int> status = child.reap()) {
        outcome.status = *status;
        return outcome;
      }
    } else if (wakeup.signal != 0) {
      if (!wakeup.from_terminal) child.signal(wakeup.signal);
      if (supervision.signals_stop && is_stop_signal(wakeup.signal)) {
        if (outcome.stop_signal == 0) outcome.stop_signal = wakeup.signal;
        arm_kill();
      }
    }
    if (wakeup.noticed && !outcome.lost) {
      outcome.lost = true;
      if (supervision.report_lost) supervision.report_lost();
      child.signal(SIGTERM);
      arm_kill();
    }
    if (kill_at && !killed && Clock::now() >= *kill_at) {
      child.signal(SIGKILL);
      killed = true;
    }
  }
}

}  // namespace dlock_cli
