// The log handler and the client's counters.
#include <algorithm>
#include <cstring>

#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "common/log.hpp"

using dlock::c_api::guarded;
using dlock::c_api::require;

extern "C" {

int dlock_set_log_handler(dlock_log_fn fn, void* user_data, int min_level) {
  return guarded([&] {
    dlock::log::set_handler(fn, user_data, min_level);
    return DLOCK_OK;
  });
}

int dlock_client_stats_get(dlock_client* client, dlock_client_stats* out) {
  return guarded([&] {
    require(client, "client");
    require(out, "out");
    constexpr std::size_t smallest = offsetof(dlock_client_stats, grants) + sizeof(uint64_t);
    if (out->size < smallest) {
      throw dlock::InvalidArgument("out->size: must be sizeof(dlock_client_stats), got " +
                                   std::to_string(out->size));
    }
    const std::size_t caller_size = out->size;
    const dlock_client_stats stats = client->client->core()->stats_snapshot();
    // Only the fields the caller's struct has (it may predate later ones).
    std::memcpy(reinterpret_cast<char*>(out) + sizeof out->size,
                reinterpret_cast<const char*>(&stats) + sizeof stats.size,
                std::min(caller_size, sizeof stats) - sizeof stats.size);
    return DLOCK_OK;
  });
}

}  // extern "C"
