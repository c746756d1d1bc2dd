// A holder's note (host, pid) kept beside a lock for the tools that show who
// holds it: the string dlock_holder:{name} = "<holder field>\n<note>", written
// by the holder on request (never on the acquire path), replaced by the next.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "backends/redis/lock_ops/lock_keys.hpp"
#include "core/client_core.hpp"
#include "core/lock_inspection.hpp"

namespace dlock {

// Whether `field` held the lock, and so its note was written.
bool note_holder(ClientCore& core, const LockKeys& keys, const std::string& field, const std::string& note);

// The last note written, if any. Throws ProtocolError when the key is not one.
std::optional<HolderNote> read_holder_note(ClientCore& core, const LockKeys& keys);

}  // namespace dlock
