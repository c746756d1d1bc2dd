// The process-wide log handler (dlock_set_log_handler). A record is built
// only when its level is on, so a caller writes
//   if (log::enabled(DLOCK_LOG_INFO)) log::emit(DLOCK_LOG_INFO, "..." + text);
// and a level that is off costs one atomic load. Records never carry a
// password: servers are named with ClientConfig::describe().
#pragma once

#include <atomic>
#include <string>

#include "dlock.h"

namespace dlock::log {

namespace detail {
// The least severe level the handler wants; 0 when there is no handler.
extern std::atomic<int> threshold;
}  // namespace detail

inline bool enabled(int level) {
  return level <= detail::threshold.load(std::memory_order_relaxed);
}

// Hands the record to the handler if it still wants the level. Never throws:
// a record that cannot be delivered is dropped.
void emit(int level, const std::string& message) noexcept;

// fn NULL: off. Waits for handler calls in progress. InvalidArgument for a
// level that is not a DLOCK_LOG_* value.
void set_handler(dlock_log_fn fn, void* user_data, int min_level);

}  // namespace dlock::log
