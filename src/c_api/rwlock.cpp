// The read-write lock's entry points: each side is a dlock_lock handle, so
// every lock call (acquire, release, asynchronous calls, free) takes it.
#include <memory>

#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "primitives/rwlock/rwlock_resource.hpp"

namespace {

using dlock::c_api::guarded;
using dlock::c_api::require;

template <typename Side>
int new_side(dlock_client* client, const char* name, dlock_lock** out) {
  return guarded([&] {
    require(out, "out");
    *out = nullptr;
    require(client, "client");
    require(name, "name");
    client->client->core();  // DLOCK_E_CLOSED for a closed client
    auto keys = std::make_shared<const dlock::RwLockKeys>(name);
    auto lock = std::make_unique<dlock_lock>();
    lock->client = client->client;
    lock->resource = std::make_shared<const Side>(std::move(keys));
    *out = lock.release();
    return DLOCK_OK;
  });
}

}  // namespace

extern "C" {

int dlock_rwlock_read_lock(dlock_client* client, const char* name, dlock_lock** out) {
  return new_side<dlock::ReadSide>(client, name, out);
}

int dlock_rwlock_write_lock(dlock_client* client, const char* name, dlock_lock** out) {
  return new_side<dlock::WriteSide>(client, name, out);
}

int dlock_rwlock_set_writer_preference(dlock_lock* write_side, int enabled) {
  return guarded([&] {
    require(write_side, "write_side");
    const auto* side = dynamic_cast<const dlock::WriteSide*>(write_side->resource.get());
    if (side == nullptr) {
      throw dlock::InvalidArgument(
          "write_side: not the write side of a read-write lock (dlock_rwlock_write_lock)");
    }
    side->prefer_writers(enabled != 0);
    return DLOCK_OK;
  });
}

}  // extern "C"
