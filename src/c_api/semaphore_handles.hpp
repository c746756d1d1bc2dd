// What the semaphores' and the latch's opaque handles are.
#pragma once

#include <memory>
#include <string>

#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "core/client.hpp"
#include "core/lost_callback.hpp"
#include "dlock.h"
#include "primitives/latch/count_down_latch.hpp"
#include "core/permit_semaphore_ops.hpp"
#include "primitives/semaphore/semaphore.hpp"

// Each handle's `state` is what its primitive's operations are built on.
struct dlock_semaphore {
  std::shared_ptr<dlock::Client> client;
  std::shared_ptr<dlock::SemaphoreState> state;
};

struct dlock_permit_semaphore {
  std::shared_ptr<dlock::Client> client;
  std::shared_ptr<dlock::PermitSemaphoreOps> ops;  // as the client's backend serves it
  std::shared_ptr<dlock::LostCallback> on_lost = std::make_shared<dlock::LostCallback>();
};

struct dlock_count_down_latch {
  std::shared_ptr<dlock::Client> client;
  std::shared_ptr<const dlock::LatchKeys> state;
};

namespace dlock::c_api {

// Runs an operation of a primitive on the core behind its handle; the core
// stays alive while it runs, even if another thread closes the client.
template <typename Ops, typename Handle, typename Work>
int with_primitive(Handle* handle, const char* argument, Work&& work) {
  require(handle, argument);
  std::shared_ptr<ClientCore> core = handle->client->core();
  Ops ops(*core, handle->state);
  return work(ops);
}

// Makes a handle of `Handle` on `name`, its state built from the name.
template <typename Handle>
int new_handle(dlock_client* client, const char* name, Handle** out) {
  require(out, "out");
  *out = nullptr;
  require(client, "client");
  require(name, "name");
  client->client->core();  // DLOCK_E_CLOSED for a closed client
  auto handle = std::make_unique<Handle>();
  handle->client = client->client;
  using State = typename decltype(handle->state)::element_type;
  handle->state = std::make_shared<State>(name);
  *out = handle.release();
  return DLOCK_OK;
}

// permits: > 0 (or >= 0 when `zero_allowed`).
inline void require_permits(int permits, bool zero_allowed = false) {
  if (permits < (zero_allowed ? 0 : 1)) {
    throw InvalidArgument(std::string("permits: must be ") + (zero_allowed ? ">= 0" : "> 0") + ", got " +
                          std::to_string(permits));
  }
}

}  // namespace dlock::c_api
