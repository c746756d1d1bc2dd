// The fair lock's entry point: a lock handle whose resource is the fair
// lock, so every dlock_lock_* call serves both kinds.
#include "c_api/lock_ops.hpp"
#include "primitives/fair_lock/fair_lock_resource.hpp"

extern "C" {

int dlock_fair_lock_new(dlock_client* client, const char* name, dlock_lock** out) {
  return dlock::c_api::new_lock_handle<dlock::FairLockResource>(client, name, out);
}

}  // extern "C"
