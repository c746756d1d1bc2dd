#include "core/handle_holds.hpp"

namespace dlock {

void release_holds_taken_through(ClientCore& core, const void* handle) {
  for (const Hold& hold : core.holds().taken_through(handle)) {
    if (hold.lost) continue;
    try {
      core.session().release(hold, core.request_id(), release_latch_ms(hold, core.retry_window_ms()),
                             std::nullopt);
    } catch (const Error&) {
      // Unreachable or closing: the lease runs out on its own; nothing renews it.
    }
  }
}

}  // namespace dlock
