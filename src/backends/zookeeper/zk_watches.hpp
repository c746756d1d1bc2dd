// Watcher contexts as ids into one registry, never raw pointers: a watch can
// fire after the wait that set it ended (or never), and a stale id finds
// nothing (docs/design/backends.md 2.6).
#pragma once

#include <zookeeper/zookeeper.h>

#include <cstdint>
#include <functional>
#include <string>

namespace dlock {
namespace zk {

class WatchRegistry {
 public:
  using Id = std::uint64_t;

  // Registers `signal` (called once, on the completion thread, when the watch
  // fires: it must only signal) and returns its id.
  static Id add(std::function<void()> signal);
  // Registers `signal` for every firing of the watches set with its id, until
  // remove(): for a watch its signal sets again (asynchronously, never
  // calling add() or remove(), which would wait for the signal's own lock).
  static Id add_repeating(std::function<void()> signal);
  // Forgets `id`; once it returns the signal is not running and never will.
  static void remove(Id id) noexcept;

  // What zoo_aw* calls take: the watcher function and the context for `id`.
  static watcher_fn watcher();
  static void* context(Id id);
};

class ZkSession;

// Forgets watch `id` and asks the server to drop it from `path` (`type`
// ZWATCHTYPE_DATA or ZWATCHTYPE_CHILD), without waiting for the answer.
void drop_watch(ZkSession& session, const std::string& path, ZooWatcherType type,
                WatchRegistry::Id id) noexcept;

}  // namespace zk
}  // namespace dlock
