// The read-write lock's entry points: each side is a dlock_lock handle, so
// every lock call (acquire, release, asynchronous calls, free) takes it.
#include "backends/redis/rwlock_ops/rwlock_resource.hpp"
#include "c_api/guarded.hpp"
#include "c_api/lock_ops.hpp"

extern "C" {

int dlock_rwlock_read_lock(dlock_client* client, const char* name, dlock_lock** out) {
  return dlock::c_api::new_lock_handle(client, name, dlock::LockKind::read, out);
}

int dlock_rwlock_write_lock(dlock_client* client, const char* name, dlock_lock** out) {
  return dlock::c_api::new_lock_handle(client, name, dlock::LockKind::write, out);
}

int dlock_rwlock_set_writer_preference(dlock_lock* write_side, int enabled) {
  return dlock::c_api::guarded([&] {
    dlock::c_api::require(write_side, "write_side");
    const auto* side = dynamic_cast<const dlock::WriteSide*>(write_side->ops->held().get());
    if (side == nullptr) {
      throw dlock::InvalidArgument(
          "write_side: not the write side of a read-write lock (dlock_rwlock_write_lock)");
    }
    side->prefer_writers(enabled != 0);
    return DLOCK_OK;
  });
}

}  // extern "C"
