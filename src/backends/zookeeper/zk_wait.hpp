// What each of Curator's recipes gives a wait engine, so one loop (or, later,
// the core's wait engine) drives them all: begin() once, then watch() and,
// after each signal, attempt(), until granted or abandon(). One thread drives
// an instance; only watch()'s signal runs elsewhere (the completion thread).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backends/zookeeper/zk_session.hpp"

namespace dlock {
namespace zk {

// How long to pause before checking again after a request failed with the
// connection (the C client reconnects on its own meanwhile).
inline constexpr std::chrono::milliseconds reconnect_pause{50};

// Whether `session` may still own the nodes it made: it is neither expired,
// closed nor refused, and the server confirmed it within its timeout. A wait
// rides a broken connection out while this holds.
bool may_still_own_nodes(const ZkSession& session);

// Where a wait's protected node goes: its parent and its "_c_<uuid>-..."
// prefix. A withdrawal finds a node whose create went unheard by it.
struct QueuedNode {
  std::string parent;
  std::string prefix;
  bool operator==(const QueuedNode& other) const { return parent == other.parent && prefix == other.prefix; }
};

struct ZkCheck {
  bool granted = false;
  std::uint64_t token = 0;  // the granted node's czxid
};

class ZkWait {
 public:
  virtual ~ZkWait() = default;
  // Creates what the recipe queues with and checks it. Throws ConnectionError,
  // AuthError, InvalidArgument.
  virtual ZkCheck begin() = 0;
  // Checks again. Throws LostError when our node is gone.
  virtual ZkCheck attempt() = 0;
  // Arms the watch that says when to attempt() again; `signal` runs once on the
  // completion thread (it must only signal), or at once on this thread when
  // the awaited change has happened already.
  virtual void watch(std::function<void()> signal) = 0;
  // Gives up without a grant, without waiting for the server. Idempotent; a
  // granted node is not touched.
  virtual void abandon() noexcept = 0;
  // The node a grant holds by (its czxid is the token); empty before it is made.
  virtual const std::string& node_path() const = 0;
  // Every protected node this wait makes, known before it makes them.
  virtual std::vector<QueuedNode> queued_nodes() const = 0;
};

// For tests and simple callers: begin, then watch and attempt until granted or
// `timeout` passed (then abandon); rides out a broken connection while the
// session lives. Returns whether it was granted.
bool wait_for_grant(ZkSession& session, ZkWait& wait, std::chrono::milliseconds timeout);

}  // namespace zk
}  // namespace dlock
