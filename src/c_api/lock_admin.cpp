// The lock's administration entry points: kept holds, inspection, attempt
// counters (the dlock command's needs, open to every caller).
#include <memory>
#include <string>

#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "c_api/lock_ops.hpp"
#include "primitives/lock/attempt_counter.hpp"

namespace {

using dlock::c_api::guarded;
using dlock::c_api::require;
using dlock::c_api::with_ops;

// 1..DLOCK_DURATION_MAX_MS, named `what` in the error.
void require_duration(int64_t ms, const char* what) {
  if (ms < 1 || ms > DLOCK_DURATION_MAX_MS) {
    throw dlock::InvalidArgument(std::string(what) + ": must be 1.." + std::to_string(DLOCK_DURATION_MAX_MS) +
                                 " ms, got " + std::to_string(ms));
  }
}

int release_keeping(dlock_lock* lock, uint64_t owner, int64_t keep_ms) {
  return guarded([&] {
    require(lock, "lock");
    require_duration(keep_ms, "keep_ms");
    return with_ops(lock, [&](dlock::ReentrantLock& ops, dlock::ClientCore&) {
      ops.release_keeping(owner, keep_ms);
      return DLOCK_OK;
    });
  });
}

}  // namespace

extern "C" {

int dlock_lock_release_keeping(dlock_lock* lock, int64_t keep_ms) {
  return release_keeping(lock, dlock_thread_owner(), keep_ms);
}

int dlock_lock_release_keeping_owner(dlock_lock* lock, uint64_t owner, int64_t keep_ms) {
  return release_keeping(lock, owner, keep_ms);
}

void dlock_lock_info_init(dlock_lock_info* info) {
  if (info == nullptr) return;
  *info = dlock_lock_info{};
  info->size = sizeof(dlock_lock_info);
}

int dlock_lock_inspect(dlock_lock* lock, dlock_lock_info* info, dlock_lock_holders** holders_out) {
  return guarded([&] {
    if (holders_out != nullptr) *holders_out = nullptr;
    require(lock, "lock");
    require(info, "info");
    // Every field is in the first version of the struct; later fields will be
    // written only when info->size covers them.
    if (info->size < sizeof(dlock_lock_info)) {
      throw dlock::InvalidArgument("info: size " + std::to_string(info->size) +
                                   " is too small; initialise it with dlock_lock_info_init()");
    }
    return with_ops(lock, [&](dlock::ReentrantLock&, dlock::ClientCore& core) {
      core.throw_if_closed();
      dlock::LockInspection inspection = lock->ops->inspect();
      auto holders = std::make_unique<dlock_lock_holders>();
      holders->holders = std::move(inspection.holders);
      info->ttl_ms = inspection.ttl_ms;
      info->has_last_token = inspection.last_token ? 1 : 0;
      info->last_token = inspection.last_token.value_or(0);
      info->holder_count = holders->holders.size();
      if (holders_out != nullptr) *holders_out = holders.release();
      return DLOCK_OK;
    });
  });
}

int dlock_lock_holders_get(const dlock_lock_holders* holders, size_t index, const char** id_out,
                           size_t* id_len_out, int64_t* hold_count_out) {
  return guarded([&] {
    require(holders, "holders");
    if (index >= holders->holders.size()) {
      throw dlock::InvalidArgument("index: " + std::to_string(index) + " is past the last of " +
                                   std::to_string(holders->holders.size()) + " holders");
    }
    const dlock::LockHolder& holder = holders->holders[index];
    if (id_out != nullptr) *id_out = holder.field.c_str();
    if (id_len_out != nullptr) *id_len_out = holder.field.size();
    if (hold_count_out != nullptr) *hold_count_out = holder.hold_count;
    return DLOCK_OK;
  });
}

void dlock_lock_holders_free(dlock_lock_holders* holders) {
  delete holders;
}

int dlock_lock_count_attempt(dlock_lock* lock, const char* period_id, int64_t expire_in_ms,
                             int64_t max_attempts, int64_t* attempt_out) {
  return guarded([&] {
    require(lock, "lock");
    require(period_id, "period_id");
    require(attempt_out, "attempt_out");
    const std::string period(period_id);
    if (period.empty() || period.size() > DLOCK_NAME_MAX) {
      throw dlock::InvalidArgument("period_id: must be 1.." + std::to_string(DLOCK_NAME_MAX) +
                                   " bytes, got " + std::to_string(period.size()));
    }
    require_duration(expire_in_ms, "expire_in_ms");
    if (max_attempts < 1) {
      throw dlock::InvalidArgument("max_attempts: must be at least 1, got " + std::to_string(max_attempts));
    }
    return with_ops(lock, [&](dlock::ReentrantLock&, dlock::ClientCore& core) {
      const dlock::AttemptCount count = dlock::count_attempt(
          core, dlock::c_api::plain_lock(lock, "count_attempt").keys, period, expire_in_ms, max_attempts);
      *attempt_out = count.attempts;
      return count.counted ? DLOCK_OK : DLOCK_NOT_ACQUIRED;
    });
  });
}

}  // extern "C"
