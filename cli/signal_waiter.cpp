#include "signal_waiter.hpp"

#include <algorithm>
#include <climits>

namespace dlock_cli {
namespace {

sigset_t signals_taken_over() {
  sigset_t signals;
  sigemptyset(&signals);
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&signals, signal);
  return signals;
}

}  // namespace

SignalWaiter::SignalWaiter() : signals_(signals_taken_over()), inbox_(signals_) {}

Wakeup SignalWaiter::wait(Notice& notice, int64_t timeout_ms) {
  Wakeup wakeup;
  if (inbox_.wait(notice.fd(), static_cast<int>(std::min<int64_t>(timeout_ms, INT_MAX)))) {
    wakeup.noticed = notice.take();
  }
  const platform::ReceivedSignal received = inbox_.take();
  wakeup.signal = received.number;
  wakeup.from_terminal = received.from_terminal;
  return wakeup;
}

}  // namespace dlock_cli
