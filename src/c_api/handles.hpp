// What the C ABI's opaque handles are.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/cancel.hpp"
#include "core/client.hpp"
#include "core/election_ops.hpp"
#include "core/lost_callback.hpp"
#include "core/lock_inspection.hpp"
#include "primitives/multi/multi_lock.hpp"
#include "primitives/multi/red_lock.hpp"

namespace dlock::c_api {

// A C lost callback as the core calls it; empty for NULL.
inline LostCallback::Fn lost_fn(dlock_lost_fn fn, void* ctx) {
  if (fn == nullptr) return nullptr;
  return [fn, ctx](const std::string& name, uint64_t owner, uint64_t token) {
    fn(name.c_str(), owner, token, ctx);
  };
}

}  // namespace dlock::c_api

struct dlock_client {
  std::shared_ptr<dlock::Client> client;
  std::unique_ptr<dlock::Backend> backend;  // its scheme is what dlock_client_backend() answers
};

// A lock of any kind (dlock::LockKind), or an election's leadership: the same
// calls take each.
struct dlock_lock {
  std::shared_ptr<dlock::Client> client;
  std::shared_ptr<dlock::LockOps> ops;
  std::shared_ptr<dlock::LostCallback> on_lost = std::make_shared<dlock::LostCallback>();
};

struct dlock_lock_holders {
  std::vector<dlock::LockHolder> holders;
};

struct dlock_cancel {
  dlock::Cancel cancel;
};

struct dlock_multilock {
  std::unique_ptr<dlock::MultiLock> lock;
};

struct dlock_redlock {
  std::unique_ptr<dlock::RedLock> lock;
};

// A candidate: its leadership is a lock hold of its own owner id, taken and
// renewed with the lock's calls through `lock`.
struct dlock_election {
  dlock_lock lock;  // lock.ops is ops->leadership()
  std::shared_ptr<dlock::ElectionOps> ops;
  uint64_t owner = 0;
  std::mutex observer_mutex;
  std::unique_ptr<dlock::LeaderFollower> observer;
};
