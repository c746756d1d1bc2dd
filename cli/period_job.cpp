#include "period_job.hpp"

#include <hiredis/hiredis.h>

#include <chrono>

#include "command_lua_scripts.hpp"
#include "lock_keys.hpp"
#include "script.hpp"

namespace dlock_cli {
namespace {

dlock::Script count_attempt_script("count_attempt", dlock::lua::count_attempt);
dlock::Script keep_hold_script("keep_hold", dlock::lua::keep_hold);

}  // namespace

Period Period::containing(int64_t unix_ms, int64_t length_ms) {
  const int64_t start = unix_ms - unix_ms % length_ms;
  return {start, start + length_ms};
}

int64_t unix_time_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

PeriodJob::PeriodJob(const std::string& url, std::string name, int64_t period_ms)
    : redis_(direct_connection_config(url)),
      name_(std::move(name)),
      period_(Period::containing(unix_time_ms(), period_ms)) {}

int64_t PeriodJob::record_attempt(int64_t max_attempts) {
  const std::string counter =
      dlock::LockKeys::prefixed("dlock_attempts", name_) + ":" + std::to_string(period_.start_ms / 1000);
  const dlock::Reply reply = count_attempt_script.run(
      redis_, {counter}, {std::to_string(max_attempts), std::to_string(period_.end_ms)});
  return reply->integer;
}

PeriodJob::Kept PeriodJob::keep_until_period_end(uint64_t owner) {
  const int64_t lease_ms = period_.end_ms - unix_time_ms();
  if (lease_ms <= 0) return Kept::period_over;
  const dlock::Reply reply =
      keep_hold_script.run(redis_, {name_}, {":" + std::to_string(owner), std::to_string(lease_ms)});
  return reply->integer == 1 ? Kept::until_period_end : Kept::hold_gone;
}

}  // namespace dlock_cli
