#include "dlock_handles.hpp"

#include <stdexcept>

namespace dlock_test {

void require_ok(int status, const std::string& what) {
  if (status != DLOCK_OK) throw std::runtime_error(what + " failed: " + describe_status(status));
}

dlock_client_stats client_stats(dlock_client* client) {
  dlock_client_stats stats{};
  stats.size = sizeof stats;
  require_ok(dlock_client_stats_get(client, &stats), "dlock_client_stats_get");
  return stats;
}

dlock_client_options default_options() {
  dlock_client_options options;
  dlock_client_options_init(&options);
  return options;
}

dlock_client_options options_with_watchdog(int64_t watchdog_timeout_ms) {
  dlock_client_options options = default_options();
  options.watchdog_timeout_ms = watchdog_timeout_ms;
  return options;
}

ClientHandle open_client(const std::string& url) {
  return open_client(url, default_options());
}

ClientHandle open_client(const std::string& url, const dlock_client_options& options) {
  dlock_client* client = nullptr;
  require_ok(dlock_client_open(url.c_str(), &options, &client), "dlock_client_open(" + url + ")");
  return ClientHandle(client);
}

LockHandle new_lock(dlock_client* client, const std::string& name) {
  dlock_lock* lock = nullptr;
  require_ok(dlock_lock_new(client, name.c_str(), &lock), "dlock_lock_new(" + name + ")");
  return LockHandle(lock);
}

ElectionHandle new_election(dlock_client* client, const std::string& name) {
  dlock_election* election = nullptr;
  require_ok(dlock_election_new(client, name.c_str(), &election), "dlock_election_new(" + name + ")");
  return ElectionHandle(election);
}

LockHandle new_fair_lock(dlock_client* client, const std::string& name) {
  dlock_lock* lock = nullptr;
  require_ok(dlock_fair_lock_new(client, name.c_str(), &lock), "dlock_fair_lock_new(" + name + ")");
  return LockHandle(lock);
}

LockHandle new_nonreentrant_lock(dlock_client* client, const std::string& name) {
  dlock_lock* lock = nullptr;
  require_ok(dlock_lock_new_nonreentrant(client, name.c_str(), &lock), "dlock_lock_new_nonreentrant(" + name + ")");
  return LockHandle(lock);
}

CancelHandle new_cancel() {
  dlock_cancel* cancel = nullptr;
  require_ok(dlock_cancel_new(&cancel), "dlock_cancel_new");
  return CancelHandle(cancel);
}

std::string describe_status(int status) {
  return std::string(dlock_strerror(status)) + " (" + std::to_string(status) + "): " + dlock_last_error();
}

bool build_has_tls() {
  dlock_client* client = nullptr;
  const int status = dlock_client_open("rediss://127.0.0.1:1?tls_ca=/nonexistent", nullptr, &client);
  dlock_client_close(client);
  return status != DLOCK_E_UNSUPPORTED;
}

}  // namespace dlock_test
