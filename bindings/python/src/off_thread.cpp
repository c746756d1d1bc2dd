#include "off_thread.hpp"

#include <thread>

namespace dlock_python {

void free_lock_off_thread(dlock_lock* lock) {
  std::thread([lock] { dlock_lock_free(lock); }).detach();
}

void close_client_off_thread(dlock_client* client) {
  std::thread([client] { dlock_client_close(client); }).detach();
}

}  // namespace dlock_python
