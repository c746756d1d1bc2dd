#include "off_thread.hpp"

#include <thread>

namespace dlock_python {

void run_off_thread(std::function<void()> work) { std::thread(std::move(work)).detach(); }

void free_lock_off_thread(dlock_lock* lock) {
  run_off_thread([lock] { dlock_lock_free(lock); });
}

void close_client_off_thread(dlock_client* client) {
  run_off_thread([client] { dlock_client_close(client); });
}

}  // namespace dlock_python
