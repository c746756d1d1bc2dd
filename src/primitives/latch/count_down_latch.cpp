#include "primitives/latch/count_down_latch.hpp"

#include <chrono>

#include "backends/redis/net/composed_script.hpp"
#include "backends/redis/redis_semaphore_ops.hpp"
#include "backends/redis/redis_session.hpp"
#include "backends/redis/redis_settle.hpp"
#include "common/error.hpp"
#include "core/count_key.hpp"
#include "core/key_names.hpp"
#include "core/release_attempts.hpp"
#include "core/requests_lua.hpp"
#include "primitives/latch/latch_lua.hpp"

namespace dlock {
namespace {

// How long the "opened" marker stays: longer than a waiter that saw the
// count, and then missed the "zero" message, takes to look again.
constexpr int64_t kOpenedMarkerMs = 3600 * 1000;

Script& try_set_count_script() {
  static Script script("latch try_set_count", lua::latch::try_set_count);
  return script;
}
Script& count_down_script() {
  static ComposedScript script("latch count_down", {lua::requests, lua::latch::count_down});
  return script.script();
}

}  // namespace

LatchKeys::LatchKeys(std::string latch_name) : name(std::move(latch_name)) {
  check_name(name, "request latches");
  channel = "redisson_countdownlatch__channel__{" + name + "}";
  latch = prefixed("dlock_count_down_latch", name);
  opened = suffixed(name, "dlock_opened");
}

bool CountDownLatch::try_set_count(int64_t count) {
  core_.throw_if_closed();
  const std::string value = std::to_string(count);
  return redis_session(core_).execute(keys_->name, [&](Connection& connection) {
    return try_set_count_script()
        .run(connection, {keys_->name, keys_->channel, keys_->opened}, {value})
        .integer_is_one("try_set_count '" + keys_->name + "'");
  });
}

int64_t CountDownLatch::count_down(uint64_t owner) {
  core_.throw_if_closed();
  const std::string record = keys_->latch + ":" + core_.field(owner);
  const std::string what = "count_down '" + keys_->name + "'";
  const std::optional<SettledRequest> earlier = core_.settle_pending(record);
  // The count-down after one that failed is its retry: applied once, now.
  if (earlier && earlier->finish) return earlier->answer;
  PendingRequest count_down;
  count_down.caller = record;
  count_down.what = what;
  count_down.finish = true;
  count_down.settle =
      redis_settle(core_, keys_->name,
                   [keys = *keys_, record, what, request = core_.request_id(),
                    window = std::to_string(core_.retry_window_ms())](Connection& connection) {
                     return count_down_script()
                         .run(connection, {keys.name, keys.channel, record, keys.opened},
                              {request, window, std::to_string(kOpenedMarkerMs)})
                         .integer(what);
                   });
  return core_.execute_once(std::move(count_down));
}

int64_t CountDownLatch::count() {
  core_.throw_if_closed();
  return redis_session(core_).execute(
      keys_->name, [&](Connection& connection) { return read_count(connection, keys_->name); });
}

CountDownLatch::Gone CountDownLatch::why_gone() {
  // One MGET (the keys share a slot): the count and the marker as of the
  // same moment, so a new round's try_set_count (which clears the marker)
  // between two reads cannot pass for a loss.
  return redis_session(core_).execute(keys_->name, [&](Connection& connection) {
    const Reply reply = connection.command({"MGET", keys_->name, keys_->opened});
    const std::string what = "MGET '" + keys_->name + "'";
    if (reply.array_size(what) != 2) throw ProtocolError(what + ": " + reply.describe());
    if (!reply.element(0).is_nil()) return Gone::set_again;
    return reply.element(1).is_nil() ? Gone::lost : Gone::opened;
  });
}

// The latch's side of a wait: its "zero" message wakes every waiter.
class LatchAwait final : public ReleaseAttempts {
 public:
  explicit LatchAwait(const CountDownLatch& latch)
      : ReleaseAttempts(latch.core_, std::make_unique<RedisSemaphoreOps>(latch.core_, latch.keys_->channel)),
        latch_(latch) {}

  Outcome attempt(int64_t /*wait_left_ms*/, bool woken_by_message) override {
    const bool open = latch_.count() <= 0;
    if (!open) {
      saw_count_ = true;
      return {false, std::nullopt};
    }
    // Open as Redisson's await sees it. When a count this waiter saw is
    // gone, a message (dlock's or Redisson's "zero") or the marker says a
    // count down did it; neither means the key vanished under the waiters.
    const CountDownLatch::Gone gone =
        saw_count_ && !woken_by_message ? latch_.why_gone() : CountDownLatch::Gone::opened;
    if (gone == CountDownLatch::Gone::lost) {
      throw LostError("await '" + latch_.keys_->name +
                      "': the latch's key vanished before it was counted down to zero (a restart "
                      "without persistence, or a failover, lost it)");
    }
    // Set again between the two reads: look again at once.
    if (gone == CountDownLatch::Gone::set_again) return {false, std::chrono::milliseconds(0)};
    return {true, std::nullopt};
  }

 private:
  CountDownLatch latch_;
  bool saw_count_ = false;
};

std::shared_ptr<WaitProcess> CountDownLatch::await_wait(int64_t wait_ms, Cancel* cancel) {
  return std::make_shared<WaitProcess>(
      std::make_shared<LatchAwait>(*this),
      WaitSpec{wait_ms, cancel, &core_.stats(), "await '" + keys_->name + "'"});
}

}  // namespace dlock
