// Fuzz target: lock names and the keys derived from them. A name is accepted
// exactly when it is 1..DLOCK_NAME_MAX bytes, every key of the lock hashes to
// the name's own cluster slot, and it is not only a hash tag ("{x}", whose
// counter and channel are those of "x"); accepted names' keys all contain it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "backends/redis/lock_ops/lock_keys.hpp"
#include "common/error.hpp"
#include "dlock.h"
#include "fuzz_require.hpp"
#include "hash_tag.hpp"

namespace {

// The rule stated over Redisson's layout (LockKeys::prefixed), not over what
// LockKeys decides, so a wrong decision shows up as a mismatch.
bool keys_would_share_a_slot(const std::string& name) {
  const std::string tag = dlock_test::hash_tag(name);
  for (const char* prefix : {"redisson_lock__channel", "redisson_lock_token", "redisson_unlock_latch"}) {
    if (dlock_test::hash_tag(dlock::LockKeys::prefixed(prefix, name)) != tag) return false;
  }
  return true;
}

// ... and no other name's keys are its keys.
bool name_allowed(const std::string& name) {
  return !name.empty() && name.size() <= DLOCK_NAME_MAX && keys_would_share_a_slot(name) &&
         !dlock_test::is_only_a_hash_tag(name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using dlock_fuzz::require;
  const std::string name(reinterpret_cast<const char*>(data), size);
  bool accepted = true;
  try {
    const dlock::LockKeys keys(name);
    require(keys.name == name, "the lock key is the name", name);
    const std::string tag = dlock_test::hash_tag(name);
    for (const std::string* key : {&keys.channel, &keys.counter, &keys.latch}) {
      require(key->find(name) != std::string::npos, "every derived key contains the name", name);
      require(dlock_test::hash_tag(*key) == tag, "every derived key has the name's hash tag", name);
    }
  } catch (const dlock::InvalidArgument&) {
    accepted = false;
  }
  require(accepted == name_allowed(name), "accepted exactly when the length and slot rules hold", name);
  return 0;
}
