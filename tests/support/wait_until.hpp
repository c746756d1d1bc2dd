#pragma once

#include <chrono>
#include <thread>

namespace dlock_test {

// Polls `condition` every few milliseconds until it holds or `timeout` passes;
// returns whether it held. Test-side polling only: the library never polls.
template <typename Condition>
bool wait_until(Condition condition, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace dlock_test
