// What the primitives get a server's operations from (docs/design/backends.md,
// 1.3): one per client, chosen by its URL's scheme. The primitives' flows
// stay backend-neutral; a backend builds what they call for one name.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "core/election_ops.hpp"
#include "core/lock_ops.hpp"
#include "core/permit_leases.hpp"

namespace dlock {

// What a dlock_lock handle can stand for: every kind is taken, waited for,
// re-entered, renewed and released through the same flow (ReentrantLock).
// A nonreentrant lock is the one kind whose holder is not let in again
// (LockOps::reentrant): its second acquire waits for its own release.
enum class LockKind { reentrant, fair, read, write, nonreentrant };

class Backend {
 public:
  virtual ~Backend() = default;
  // The URL scheme that names the backend ("redis"): what
  // dlock_client_backend() answers.
  virtual const char* scheme() const = 0;
  // The operations on the lock `name` of `kind`. Throws UnsupportedError
  // naming the backend for a kind it does not serve, InvalidArgument for a
  // name it refuses, ClosedError once the client is closed.
  virtual std::shared_ptr<LockOps> lock(const std::string& name, LockKind kind) = 0;
  // The names of the locks that start with `prefix`, each once (what `dlock
  // list` shows). Throws UnsupportedError where the backend cannot list them.
  virtual std::vector<std::string> list_locks(const std::string& /*prefix*/) {
    throw UnsupportedError(std::string("list locks: the ") + scheme() + " backend cannot list its locks");
  }
  // The leases of the leased-permit semaphore `name` when the backend keeps
  // its permits as holds of a lock kind (ZooKeeper); nullptr when it has a
  // layout of its own (Redis: primitives/permit_semaphore's PermitSemaphore).
  // Throws InvalidArgument for a name it refuses, ClosedError once the client
  // is closed.
  virtual std::shared_ptr<PermitLeases> permit_leases(const std::string& name) = 0;
  // The election `name`. Throws UnsupportedError naming the backend where it
  // serves none, InvalidArgument for a name it refuses, ClosedError once the
  // client is closed.
  virtual std::shared_ptr<ElectionOps> election(const std::string& name) {
    throw UnsupportedError("election '" + name + "': the " + scheme() + " backend does not serve elections");
  }
};

}  // namespace dlock
