// The fair lock's entry point: a lock handle of the fair kind, so every
// dlock_lock_* call serves both kinds.
#include "c_api/lock_ops.hpp"

extern "C" {

int dlock_fair_lock_new(dlock_client* client, const char* name, dlock_lock** out) {
  return dlock::c_api::new_lock_handle(client, name, dlock::LockKind::fair, out);
}

}  // extern "C"
