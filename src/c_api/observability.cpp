// The log handler and the client's counters.
#include <algorithm>
#include <cstring>

#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "common/log.hpp"

using dlock::c_api::guarded;
using dlock::c_api::require;

namespace {

uint64_t load(const std::atomic<uint64_t>& counter) {
  return counter.load(std::memory_order_relaxed);
}

// Every field of the C struct (size set to sizeof).
dlock_client_stats snapshot(const dlock::ClientCore& core) {
  const dlock::ClientStats& stats = core.stats();
  dlock_client_stats out{};
  out.size = sizeof out;
  out.grants = load(stats.grants);
  out.reentries = load(stats.reentries);
  out.waits = load(stats.waits);
  out.handoffs = load(stats.handoffs);
  out.renewals = load(stats.renewals);
  out.renewal_round_trips = load(stats.renewal_round_trips);
  out.locks_lost = load(stats.locks_lost);
  out.reconnects = load(stats.reconnects) + core.session().reconnects();
  out.transient_retries = load(stats.transient_retries);
  out.wait_p50_us = stats.wait_times.percentile_us(0.50);
  out.wait_p99_us = stats.wait_times.percentile_us(0.99);
  out.wait_max_us = stats.wait_times.max_us();
  out.failovers = load(stats.failovers);
  out.expiries = load(stats.expiries);
  return out;
}

}  // namespace

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
    const dlock_client_stats stats = snapshot(*client->client->core());
    // Only the fields the caller's struct has (it may predate later ones).
    std::memcpy(reinterpret_cast<char*>(out) + sizeof out->size,
                reinterpret_cast<const char*>(&stats) + sizeof stats.size,
                std::min(caller_size, sizeof stats) - sizeof stats.size);
    return DLOCK_OK;
  });
}

}  // extern "C"
