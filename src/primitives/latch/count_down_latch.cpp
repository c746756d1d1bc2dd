#include "primitives/latch/count_down_latch.hpp"

#include "core/channel_wait.hpp"
#include "core/count_key.hpp"
#include "core/key_names.hpp"
#include "primitives/latch/latch_lua.hpp"

namespace dlock {
namespace {

Script& try_set_count_script() {
  static Script script("latch try_set_count", lua::latch::try_set_count);
  return script;
}
Script& count_down_script() {
  static Script script("latch count_down", lua::latch::count_down);
  return script;
}

}  // namespace

LatchKeys::LatchKeys(std::string latch_name) : name(std::move(latch_name)) {
  check_name(name, "request latches");
  channel = "redisson_countdownlatch__channel__{" + name + "}";
  latch = prefixed("dlock_count_down_latch", name);
}

bool CountDownLatch::try_set_count(int64_t count) {
  core_.throw_if_closed();
  const std::string value = std::to_string(count);
  return core_.execute(keys_->name, [&](Connection& connection) {
    return try_set_count_script()
        .run(connection, {keys_->name, keys_->channel}, {value})
        .integer_is_one("try_set_count '" + keys_->name + "'");
  });
}

int64_t CountDownLatch::count_down(uint64_t owner) {
  core_.throw_if_closed();
  const std::string latch = keys_->latch + ":" + core_.field(owner);
  const std::string window = std::to_string(core_.retry_window_ms());
  const std::string request = core_.request_id();
  return core_.execute(keys_->name, [&](Connection& connection) {
    return count_down_script()
        .run(connection, {keys_->name, keys_->channel, latch}, {request, window})
        .integer("count_down '" + keys_->name + "'");
  });
}

int64_t CountDownLatch::count() {
  core_.throw_if_closed();
  return core_.execute(keys_->name, [&](Connection& connection) { return read_count(connection, keys_->name); });
}

bool CountDownLatch::await(int64_t wait_ms, Cancel* cancel) {
  auto attempt = [&] {
    const bool open = count() <= 0;
    return ChannelAttempt<bool>{open ? std::optional<bool>(true) : std::nullopt, std::nullopt};
  };
  return wait_on_channel<bool>(core_, keys_->channel, wait_ms, cancel, "await '" + keys_->name + "'", attempt)
      .has_value();
}

}  // namespace dlock
