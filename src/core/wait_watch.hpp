// Keeps a waiter registered with a backend's wake-up source (a Redis
// channel, a ZooKeeper watch) for as long as it lives.
#pragma once

namespace dlock {

class WaitWatch {
 public:
  virtual ~WaitWatch() = default;
};

}  // namespace dlock
