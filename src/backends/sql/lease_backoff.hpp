// How long a waiter sleeps between attempts where nothing wakes it (MySQL,
// and PostgreSQL until LISTEN/NOTIFY): 10 ms doubling to a ceiling, +-20 %
// jitter, and never past the holder's lease end (+1 ms), since a lease that
// runs out tells nobody (docs/design/backends.md 3.5).
#pragma once

#include <chrono>
#include <random>

namespace dlock {
namespace sql {

// What next() is given where no lease ends (a session lock's holder): the
// ceiling rules alone.
constexpr std::chrono::milliseconds kNoLeaseEnd = std::chrono::hours(1);

class LeaseBackoff {
 public:
  explicit LeaseBackoff(std::chrono::milliseconds first = std::chrono::milliseconds(10),
                        std::chrono::milliseconds ceiling = std::chrono::milliseconds(500));

  // The next sleep, given the holder's lease left by the server's clock.
  std::chrono::milliseconds next(std::chrono::milliseconds holder_lease_left);

 private:
  std::chrono::milliseconds current_;
  std::chrono::milliseconds ceiling_;
  std::minstd_rand random_;
};

}  // namespace sql
}  // namespace dlock
