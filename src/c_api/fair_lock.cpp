// The fair lock's entry point: a lock handle whose resource is the fair
// lock, so every dlock_lock_* call serves both kinds.
#include "backends/redis/fair_lock_ops/fair_lock_resource.hpp"
#include "c_api/lock_ops.hpp"

extern "C" {

int dlock_fair_lock_new(dlock_client* client, const char* name, dlock_lock** out) {
  return dlock::c_api::new_lock_handle<dlock::FairLockResource>(client, name, out);
}

}  // extern "C"
