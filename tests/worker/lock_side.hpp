#pragma once

#include <string>

#include "dlock_handles.hpp"

namespace dlock_worker {

// The handle a worker takes: "lock" the reentrant lock, "fair" the fair lock,
// "read" or "write" a side of the read-write lock of that name.
dlock_test::LockHandle open_side(dlock_client* client, const std::string& name, const std::string& side);

// The owner a section is logged under: "<pid>.<thread>", prefixed "r:" or
// "w:" for a side of the read-write lock (the read-write checker reads it).
std::string section_owner(const std::string& side, int thread_index);

}  // namespace dlock_worker
