#include "lock_side.hpp"

#include <unistd.h>

#include <stdexcept>

namespace dlock_worker {

dlock_test::LockHandle open_side(dlock_client* client, const std::string& name, const std::string& side) {
  if (side == "lock") return dlock_test::new_lock(client, name);
  if (side == "fair") return dlock_test::new_fair_lock(client, name);
  dlock_lock* lock = nullptr;
  if (side == "read") {
    dlock_test::require_ok(dlock_rwlock_read_lock(client, name.c_str(), &lock), "dlock_rwlock_read_lock");
  } else if (side == "write") {
    dlock_test::require_ok(dlock_rwlock_write_lock(client, name.c_str(), &lock), "dlock_rwlock_write_lock");
  } else {
    throw std::invalid_argument("--kind: lock, fair, read or write, got " + side);
  }
  return dlock_test::LockHandle(lock);
}

std::string section_owner(const std::string& side, int thread_index) {
  const std::string owner = std::to_string(getpid()) + "." + std::to_string(thread_index);
  if (side != "read" && side != "write") return owner;
  return side.substr(0, 1) + ":" + owner;
}

}  // namespace dlock_worker
