#include "backends/zookeeper/zk_watches.hpp"

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace dlock {
namespace zk {
namespace {

struct Registry {
  std::mutex mutex;
  WatchRegistry::Id next_id = 1;
  std::unordered_map<WatchRegistry::Id, std::function<void()>> signals;
};

Registry& registry() {
  static Registry* instance = new Registry();  // never destroyed: watches may fire during exit
  return *instance;
}

void fire(zhandle_t*, int, int, const char*, void* context) {
  const auto id = static_cast<WatchRegistry::Id>(reinterpret_cast<std::uintptr_t>(context));
  Registry& all = registry();
  // Signalled under the lock, so remove() never returns while it runs; a
  // signal only notifies, so the lock is held for a moment.
  std::lock_guard<std::mutex> lock(all.mutex);
  const auto found = all.signals.find(id);
  if (found == all.signals.end()) return;
  const std::function<void()> signal = std::move(found->second);
  all.signals.erase(found);
  signal();
}

}  // namespace

WatchRegistry::Id WatchRegistry::add(std::function<void()> signal) {
  Registry& all = registry();
  std::lock_guard<std::mutex> lock(all.mutex);
  const Id id = all.next_id++;
  all.signals.emplace(id, std::move(signal));
  return id;
}

void WatchRegistry::remove(Id id) noexcept {
  Registry& all = registry();
  std::lock_guard<std::mutex> lock(all.mutex);
  all.signals.erase(id);
}

watcher_fn WatchRegistry::watcher() {
  return fire;
}

void* WatchRegistry::context(Id id) {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(id));
}

}  // namespace zk
}  // namespace dlock
