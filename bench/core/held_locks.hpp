// Many locks held by one client on its watchdog, as the renewal figures need:
// acquired at construction, counted, then released.
#pragma once

#include <string>
#include <vector>

#include "borrowed.hpp"

namespace dlock_bench {

// The client's counters (dlock_client_stats_get); throws on a failure.
dlock_client_stats stats_of(dlock_client* client);

class HeldLocks {
 public:
  // Acquires `<prefix><n>` for n in [0, count) with the watchdog's lease; throws on a failure.
  HeldLocks(dlock_client* client, const std::string& prefix, int count);
  // How many of them the client still holds.
  int still_held() const;
  // Releases every one; throws when a release fails (a hold was lost).
  void release_all();

 private:
  std::vector<LockHandle> locks_;
};

}  // namespace dlock_bench
