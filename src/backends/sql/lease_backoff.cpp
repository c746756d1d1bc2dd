#include "backends/sql/lease_backoff.hpp"

#include <algorithm>

namespace dlock {
namespace sql {

LeaseBackoff::LeaseBackoff(std::chrono::milliseconds first, std::chrono::milliseconds ceiling)
    : current_(first), ceiling_(ceiling), random_(std::random_device{}()) {}

std::chrono::milliseconds LeaseBackoff::next(std::chrono::milliseconds holder_lease_left) {
  std::uniform_int_distribution<long long> jitter(80, 120);
  const std::chrono::milliseconds jittered(std::max<long long>(1, current_.count() * jitter(random_) / 100));
  current_ = std::min(current_ * 2, ceiling_);
  return std::min(jittered, holder_lease_left + std::chrono::milliseconds(1));
}

}  // namespace sql
}  // namespace dlock
