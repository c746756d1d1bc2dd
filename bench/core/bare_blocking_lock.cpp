#include "bare_blocking_lock.hpp"

#include <poll.h>

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace dlock_bench {

BareBlockingLock::BareBlockingLock(const dlock::ClientConfig& server, const std::string& name,
                                   int64_t lease_ms)
    : lock_(server, name, lease_ms), subscription_(connect(server)) {
  checked(subscription_, {"SUBSCRIBE", lock_.channel()});
}

uint64_t BareBlockingLock::acquire() {
  take_messages(0);  // releases from before this call are no news
  for (;;) {
    const BareLock::Attempt attempt = lock_.try_acquire();
    if (attempt.granted) return static_cast<uint64_t>(attempt.value);
    take_messages(static_cast<int>(std::clamp<int64_t>(attempt.value, 0, INT_MAX)));
  }
}

void BareBlockingLock::take_messages(int timeout_ms) {
  redisContext* context = subscription_.hiredis();
  pollfd readable{context->fd, POLLIN, 0};
  if (poll(&readable, 1, timeout_ms) <= 0) return;
  if (redisBufferRead(context) != REDIS_OK) {
    throw std::runtime_error(std::string("subscription: ") + context->errstr);
  }
  void* message = nullptr;
  while (redisGetReplyFromReader(context, &message) == REDIS_OK && message != nullptr) {
    freeReplyObject(message);
  }
}

}  // namespace dlock_bench
