// RAII ownership of dlock handles, and the one way the benchmark treats a
// failing dlock call: it throws, naming the call and dlock's message.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "dlock.h"

namespace dlock_bench {

struct ClientCloser {
  void operator()(dlock_client* client) const noexcept { dlock_client_close(client); }
};
struct LockFreer {
  void operator()(dlock_lock* lock) const noexcept { dlock_lock_free(lock); }
};
using ClientHandle = std::unique_ptr<dlock_client, ClientCloser>;
using LockHandle = std::unique_ptr<dlock_lock, LockFreer>;

// Throws std::runtime_error unless `status` is DLOCK_OK.
void check(int status, const char* call);

// watchdog_timeout_ms 0 keeps the library's default.
ClientHandle open_client(const std::string& url, int64_t watchdog_timeout_ms = 0);
LockHandle new_lock(dlock_client* client, const std::string& name);

}  // namespace dlock_bench
