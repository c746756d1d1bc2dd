// The extern "C" entry points. Each one checks its arguments, then runs its
// work inside guarded(), the one place where internal errors become status
// codes: no C++ exception crosses the ABI.
#include <atomic>
#include <memory>
#include <new>
#include <string>

#include "cancel.hpp"
#include "client.hpp"
#include "dlock.h"
#include "error.hpp"
#include "lock_keys.hpp"
#include "lock_ops.hpp"
#include "lost_callback.hpp"
#include "url.hpp"

struct dlock_client {
  std::shared_ptr<dlock::Client> client;
};

struct dlock_lock {
  std::shared_ptr<dlock::Client> client;
  std::shared_ptr<const dlock::LockKeys> keys;
  std::shared_ptr<dlock::LostCallback> on_lost = std::make_shared<dlock::LostCallback>();
};

struct dlock_cancel {
  dlock::Cancel cancel;
};

namespace {

thread_local std::string last_error;

template <typename Work>
int guarded(Work&& work) noexcept {
  try {
    return work();
  } catch (const dlock::Error& error) {
    last_error = error.what();
    return error.status();
  } catch (const std::bad_alloc&) {
    last_error = "out of memory";
    return DLOCK_E_NOMEM;
  } catch (const std::exception& error) {
    last_error = error.what();
    return DLOCK_E_PROTOCOL;
  } catch (...) {
    last_error = "unexpected internal error";
    return DLOCK_E_PROTOCOL;
  }
}

template <typename T>
void require(const T* pointer, const char* name) {
  if (pointer == nullptr) throw dlock::InvalidArgument(std::string(name) + ": must not be NULL");
}

void require_wait(int64_t wait_ms) {
  if (wait_ms < -1) {
    throw dlock::InvalidArgument("wait_ms: must be -1 (forever), 0 (one attempt) or > 0, got " +
                                 std::to_string(wait_ms));
  }
}

void require_lease(int64_t lease_ms) {
  if (lease_ms == 0 || lease_ms < -1) {
    throw dlock::InvalidArgument("lease_ms: must be -1 (kept alive by the watchdog) or > 0, got " +
                                 std::to_string(lease_ms));
  }
}

// The core stays alive while its operation runs, even if another thread
// closes the client meanwhile.
template <typename Work>
int with_ops(dlock_lock* lock, Work&& work) {
  require(lock, "lock");
  std::shared_ptr<dlock::ClientCore> core = lock->client->core();
  dlock::LockOps ops(*core, lock->keys);
  return work(ops, *core);
}

int acquire(dlock_lock* lock, uint64_t owner, int64_t wait_ms, int64_t lease_ms, dlock_cancel* cancel,
            uint64_t* token_out) {
  return guarded([&] {
    require(lock, "lock");
    require_wait(wait_ms);
    require_lease(lease_ms);
    return with_ops(lock, [&](dlock::LockOps& ops, dlock::ClientCore&) {
      dlock::AcquireRequest request;
      request.owner = owner;
      request.wait_ms = wait_ms;
      request.lease_ms = lease_ms;
      request.cancel = cancel != nullptr ? &cancel->cancel : nullptr;
      request.handle = lock;
      request.on_lost = lock->on_lost;
      const std::optional<uint64_t> token = ops.acquire(request);
      if (!token) return DLOCK_NOT_ACQUIRED;
      if (token_out != nullptr) *token_out = *token;
      return DLOCK_OK;
    });
  });
}

int release(dlock_lock* lock, uint64_t owner) {
  return guarded([&] {
    return with_ops(lock, [&](dlock::LockOps& ops, dlock::ClientCore&) {
      ops.release(owner);
      return DLOCK_OK;
    });
  });
}

// Reads the owner's hold as the client records it: no round trip.
template <typename Out, typename Read>
int read_hold(dlock_lock* lock, uint64_t owner, Out* out, Read&& read) {
  return guarded([&] {
    require(out, "out");
    return with_ops(lock, [&](dlock::LockOps&, dlock::ClientCore& core) {
      *out = read(core.holds().find(lock->keys->name, owner));
      return DLOCK_OK;
    });
  });
}

int is_held(dlock_lock* lock, uint64_t owner, int* out) {
  return read_hold(lock, owner, out,
                   [](const std::optional<dlock::Hold>& hold) { return hold && !hold->lost ? 1 : 0; });
}

int hold_count(dlock_lock* lock, uint64_t owner, int* out) {
  return read_hold(lock, owner, out,
                   [](const std::optional<dlock::Hold>& hold) { return hold ? hold->count : 0; });
}

int fencing_token(dlock_lock* lock, uint64_t owner, uint64_t* out) {
  return read_hold(lock, owner, out, [&](const std::optional<dlock::Hold>& hold) {
    if (!hold)
      throw dlock::NotOwnerError("fencing_token: the caller does not hold '" + lock->keys->name + "'");
    return hold->token;
  });
}

}  // namespace

extern "C" {

const char* dlock_version(void) {
  return DLOCK_VERSION_STRING;
}

const char* dlock_strerror(int status) {
  switch (status) {
    case DLOCK_OK:
      return "ok";
    case DLOCK_NOT_ACQUIRED:
      return "not acquired: the wait ran out";
    case DLOCK_E_INVALID:
      return "invalid argument";
    case DLOCK_E_CONNECTION:
      return "connection error: Redis unreachable, I/O error or timeout";
    case DLOCK_E_NOT_OWNER:
      return "not owner: the caller does not hold the lock";
    case DLOCK_E_LOST:
      return "lock lost: its lease ran out or it was taken";
    case DLOCK_E_PROTOCOL:
      return "protocol error: unexpected reply from Redis";
    case DLOCK_E_AUTH:
      return "authentication failed";
    case DLOCK_E_INTERRUPTED:
      return "interrupted";
    case DLOCK_E_CLOSED:
      return "client closed";
    case DLOCK_E_NOMEM:
      return "out of memory";
    case DLOCK_E_UNSUPPORTED:
      return "unsupported";
    default:
      return "unknown status";
  }
}

const char* dlock_last_error(void) {
  return last_error.c_str();
}

uint64_t dlock_thread_owner(void) {
  static std::atomic<uint64_t> next{0};
  thread_local const uint64_t owner = (uint64_t{1} << 63) | ++next;
  return owner;
}

void dlock_client_options_init(dlock_client_options* opts) {
  if (opts == nullptr) return;
  const dlock::ClientConfig defaults;
  opts->size = sizeof(dlock_client_options);
  opts->connect_timeout_ms = defaults.connect_timeout_ms;
  opts->command_timeout_ms = defaults.command_timeout_ms;
  opts->watchdog_timeout_ms = defaults.watchdog_timeout_ms;
  opts->pool_size = defaults.pool_size;
}

int dlock_client_open(const char* url, const dlock_client_options* opts, dlock_client** out) {
  return guarded([&] {
    require(out, "out");
    *out = nullptr;
    require(url, "url");
    dlock::ClientConfig config = dlock::config_from_options(opts);
    dlock::apply_url(url, config);
    *out = new dlock_client{std::make_shared<dlock::Client>(config)};
    return DLOCK_OK;
  });
}

void dlock_client_close(dlock_client* client) {
  if (client == nullptr) return;
  guarded([&] {
    client->client->close();
    return DLOCK_OK;
  });
  delete client;
}

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

int dlock_lock_new(dlock_client* client, const char* name, dlock_lock** out) {
  return guarded([&] {
    require(out, "out");
    *out = nullptr;
    require(client, "client");
    require(name, "name");
    client->client->core();  // DLOCK_E_CLOSED for a closed client
    auto lock = std::make_unique<dlock_lock>();
    lock->client = client->client;
    lock->keys = std::make_shared<const dlock::LockKeys>(name);
    *out = lock.release();
    return DLOCK_OK;
  });
}

void dlock_lock_free(dlock_lock* lock) {
  if (lock == nullptr) return;
  lock->on_lost->set(nullptr, nullptr);
  guarded([&] {
    return with_ops(lock, [&](dlock::LockOps& ops, dlock::ClientCore&) {
      ops.release_taken_through(lock);
      return DLOCK_OK;
    });
  });
  delete lock;
}

const char* dlock_lock_name(const dlock_lock* lock) {
  return lock != nullptr ? lock->keys->name.c_str() : nullptr;
}

int dlock_lock_acquire(dlock_lock* lock, int64_t wait_ms, int64_t lease_ms, uint64_t* token_out) {
  return acquire(lock, dlock_thread_owner(), wait_ms, lease_ms, nullptr, token_out);
}

int dlock_lock_acquire_owner(dlock_lock* lock, uint64_t owner, int64_t wait_ms, int64_t lease_ms,
                             dlock_cancel* cancel, uint64_t* token_out) {
  return acquire(lock, owner, wait_ms, lease_ms, cancel, token_out);
}

int dlock_lock_release(dlock_lock* lock) {
  return release(lock, dlock_thread_owner());
}

int dlock_lock_release_owner(dlock_lock* lock, uint64_t owner) {
  return release(lock, owner);
}

int dlock_lock_force_release(dlock_lock* lock) {
  return guarded([&] {
    return with_ops(lock, [&](dlock::LockOps& ops, dlock::ClientCore&) {
      ops.force_release();
      return DLOCK_OK;
    });
  });
}

int dlock_lock_is_locked(dlock_lock* lock, int* out) {
  return guarded([&] {
    require(out, "out");
    return with_ops(lock, [&](dlock::LockOps& ops, dlock::ClientCore&) {
      *out = ops.is_locked() ? 1 : 0;
      return DLOCK_OK;
    });
  });
}

int dlock_lock_is_held(dlock_lock* lock, int* out) {
  return is_held(lock, dlock_thread_owner(), out);
}

int dlock_lock_is_held_owner(dlock_lock* lock, uint64_t owner, int* out) {
  return is_held(lock, owner, out);
}

int dlock_lock_hold_count(dlock_lock* lock, int* out) {
  return hold_count(lock, dlock_thread_owner(), out);
}

int dlock_lock_hold_count_owner(dlock_lock* lock, uint64_t owner, int* out) {
  return hold_count(lock, owner, out);
}

int dlock_lock_fencing_token(dlock_lock* lock, uint64_t* out) {
  return fencing_token(lock, dlock_thread_owner(), out);
}

int dlock_lock_fencing_token_owner(dlock_lock* lock, uint64_t owner, uint64_t* out) {
  return fencing_token(lock, owner, out);
}

int dlock_lock_ttl(dlock_lock* lock, int64_t* ms_out) {
  return guarded([&] {
    require(ms_out, "ms_out");
    return with_ops(lock, [&](dlock::LockOps& ops, dlock::ClientCore&) {
      *ms_out = ops.ttl_ms();
      return DLOCK_OK;
    });
  });
}

int dlock_lock_set_lost_callback(dlock_lock* lock, dlock_lost_fn fn, void* ctx) {
  return guarded([&] {
    require(lock, "lock");
    lock->client->core();  // DLOCK_E_CLOSED for a closed client
    lock->on_lost->set(fn, ctx);
    return DLOCK_OK;
  });
}

}  // extern "C"
