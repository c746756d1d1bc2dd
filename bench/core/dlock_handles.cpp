#include "dlock_handles.hpp"

#include <stdexcept>

namespace dlock_bench {

void check(int status, const char* call) {
  if (status != DLOCK_OK) {
    throw std::runtime_error(std::string(call) + ": " + dlock_strerror(status) + " (" + dlock_last_error() +
                             ")");
  }
}

ClientHandle open_client(const std::string& url, int64_t watchdog_timeout_ms) {
  dlock_client_options options;
  dlock_client_options_init(&options);
  if (watchdog_timeout_ms > 0) options.watchdog_timeout_ms = watchdog_timeout_ms;
  dlock_client* client = nullptr;
  check(dlock_client_open(url.c_str(), &options, &client), "dlock_client_open");
  return ClientHandle(client);
}

LockHandle new_lock(dlock_client* client, const std::string& name) {
  dlock_lock* lock = nullptr;
  check(dlock_lock_new(client, name.c_str(), &lock), "dlock_lock_new");
  return LockHandle(lock);
}

}  // namespace dlock_bench
