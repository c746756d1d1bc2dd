// The cancel token entry points.
#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"

using dlock::c_api::guarded;
using dlock::c_api::require;

extern "C" {

int dlock_cancel_new(dlock_cancel** out) {
  return guarded([&] {
    require(out, "out");
    *out = new dlock_cancel();
    return DLOCK_OK;
  });
}

int dlock_cancel_trigger(dlock_cancel* cancel) {
  return guarded([&] {
    require(cancel, "cancel");
    cancel->cancel.trigger();
    return DLOCK_OK;
  });
}

int dlock_cancel_reset(dlock_cancel* cancel) {
  return guarded([&] {
    require(cancel, "cancel");
    cancel->cancel.reset();
    return DLOCK_OK;
  });
}

void dlock_cancel_free(dlock_cancel* cancel) {
  delete cancel;
}

}  // extern "C"
