#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "dlock.h"

namespace dlock_test {

struct ClientCloser {
  void operator()(dlock_client* client) const { dlock_client_close(client); }
};
struct LockFreer {
  void operator()(dlock_lock* lock) const { dlock_lock_free(lock); }
};
struct CancelFreer {
  void operator()(dlock_cancel* cancel) const { dlock_cancel_free(cancel); }
};

struct MultiLockFreer {
  void operator()(dlock_multilock* multilock) const { dlock_multilock_free(multilock); }
};
struct ElectionFreer {
  void operator()(dlock_election* election) const { dlock_election_free(election); }
};
struct RedLockFreer {
  void operator()(dlock_redlock* redlock) const { dlock_redlock_free(redlock); }
};

using ClientHandle = std::unique_ptr<dlock_client, ClientCloser>;
using MultiLockHandle = std::unique_ptr<dlock_multilock, MultiLockFreer>;
using RedLockHandle = std::unique_ptr<dlock_redlock, RedLockFreer>;
using LockHandle = std::unique_ptr<dlock_lock, LockFreer>;
using CancelHandle = std::unique_ptr<dlock_cancel, CancelFreer>;
using ElectionHandle = std::unique_ptr<dlock_election, ElectionFreer>;

// Options after dlock_client_options_init().
dlock_client_options default_options();
dlock_client_options options_with_watchdog(int64_t watchdog_timeout_ms);

// Throws std::runtime_error naming `what` and the status unless `status` is DLOCK_OK.
void require_ok(int status, const std::string& what);

// These throw std::runtime_error (status and dlock_last_error()) on failure, which
// GoogleTest reports as a test failure.
ClientHandle open_client(const std::string& url);
ClientHandle open_client(const std::string& url, const dlock_client_options& options);
LockHandle new_lock(dlock_client* client, const std::string& name);
LockHandle new_fair_lock(dlock_client* client, const std::string& name);
LockHandle new_nonreentrant_lock(dlock_client* client, const std::string& name);
CancelHandle new_cancel();
ElectionHandle new_election(dlock_client* client, const std::string& name);

// The client's counters (dlock_client_stats_get); throws like require_ok.
dlock_client_stats client_stats(dlock_client* client);

// Whether this libdlock speaks TLS: without it, rediss:// is unsupported before
// any file is read or any connection made.
bool build_has_tls();

// "DLOCK_E_LOST (-4): <last error>": for assertion messages.
std::string describe_status(int status);

}  // namespace dlock_test
