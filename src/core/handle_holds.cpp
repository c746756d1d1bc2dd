#include "core/handle_holds.hpp"

#include "backends/redis/redis_held.hpp"

namespace dlock {

void release_holds_taken_through(ClientCore& core, const void* handle) {
  for (const Hold& hold : core.holds().taken_through(handle)) {
    if (hold.lost) continue;
    const std::string request_id = core.request_id();
    try {
      core.execute(hold.resource->name(), [&](Connection& connection) {
        return redis_held(hold).release(connection, hold.grant.owner_field, request_id,
                                      release_latch_ms(hold, core.retry_window_ms()));
      });
    } catch (const Error&) {
      // Unreachable or closing: the lease runs out on its own; nothing renews it.
    }
  }
}

}  // namespace dlock
