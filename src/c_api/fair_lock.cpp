// The fair lock's entry point: a lock handle whose resource is the fair
// lock, so every dlock_lock_* call serves both kinds.
#include <memory>

#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "primitives/fair_lock/fair_lock_resource.hpp"

extern "C" {

int dlock_fair_lock_new(dlock_client* client, const char* name, dlock_lock** out) {
  using dlock::c_api::require;
  return dlock::c_api::guarded([&] {
    require(out, "out");
    *out = nullptr;
    require(client, "client");
    require(name, "name");
    client->client->core();  // DLOCK_E_CLOSED for a closed client
    auto lock = std::make_unique<dlock_lock>();
    lock->client = client->client;
    lock->resource = std::make_shared<const dlock::FairLockResource>(name);
    *out = lock.release();
    return DLOCK_OK;
  });
}

}  // extern "C"
