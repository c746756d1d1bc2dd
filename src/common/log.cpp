#include "common/log.hpp"

#include <mutex>
#include <shared_mutex>

#include "common/error.hpp"

namespace dlock::log {
namespace detail {
std::atomic<int> threshold{0};
}  // namespace detail

namespace {

struct Handler {
  // Shared by the calls in progress; set_handler() takes it exclusively, so it
  // returns only when none of them still uses the old user_data.
  std::shared_mutex mutex;
  dlock_log_fn fn = nullptr;
  void* user_data = nullptr;
  int min_level = 0;
};

// Never destroyed: background threads of clients in other static objects may
// still log while the process exits.
Handler& handler() {
  static Handler* const instance = new Handler();
  return *instance;
}

}  // namespace

void emit(int level, const std::string& message) noexcept {
  Handler& current = handler();
  std::shared_lock<std::shared_mutex> lock(current.mutex);
  if (current.fn == nullptr || level > current.min_level) return;
  current.fn(level, message.c_str(), current.user_data);
}

void set_handler(dlock_log_fn fn, void* user_data, int min_level) {
  if (fn != nullptr && (min_level < DLOCK_LOG_ERROR || min_level > DLOCK_LOG_DEBUG)) {
    throw InvalidArgument("min_level: must be DLOCK_LOG_ERROR (1) .. DLOCK_LOG_DEBUG (4), got " +
                          std::to_string(min_level));
  }
  Handler& current = handler();
  std::unique_lock<std::shared_mutex> lock(current.mutex);
  current.fn = fn;
  current.user_data = user_data;
  current.min_level = fn == nullptr ? 0 : min_level;
  detail::threshold.store(current.min_level, std::memory_order_relaxed);
}

}  // namespace dlock::log
