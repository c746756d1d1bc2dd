#include "backends/zookeeper/zk_watches.hpp"

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "backends/zookeeper/zk_session.hpp"

namespace dlock {
namespace zk {
namespace {

struct Registry {
  std::mutex mutex;
  WatchRegistry::Id next_id = 1;
  std::unordered_map<WatchRegistry::Id, std::function<void()>> signals;
  std::unordered_map<WatchRegistry::Id, std::function<void()>> repeating;
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
  const auto again = all.repeating.find(id);
  if (again != all.repeating.end()) {
    again->second();
    return;
  }
  const auto found = all.signals.find(id);
  if (found == all.signals.end()) return;
  const std::function<void()> signal = std::move(found->second);
  all.signals.erase(found);
  signal();
}

void ignore_answer(int, const void*) {}

// zookeeper.h (3.8) declares zoo_aremove_watches' completion as a
// void_completion_t*, but the client stores and calls the pointer it is given
// as the function itself (create_completion_entry casts it back).
void_completion_t* as_declared(void_completion_t completion) {
  return reinterpret_cast<void_completion_t*>(completion);
}

}  // namespace

WatchRegistry::Id WatchRegistry::add(std::function<void()> signal) {
  Registry& all = registry();
  std::lock_guard<std::mutex> lock(all.mutex);
  const Id id = all.next_id++;
  all.signals.emplace(id, std::move(signal));
  return id;
}

WatchRegistry::Id WatchRegistry::add_repeating(std::function<void()> signal) {
  Registry& all = registry();
  std::lock_guard<std::mutex> lock(all.mutex);
  const Id id = all.next_id++;
  all.repeating.emplace(id, std::move(signal));
  return id;
}

void WatchRegistry::remove(Id id) noexcept {
  Registry& all = registry();
  std::lock_guard<std::mutex> lock(all.mutex);
  all.signals.erase(id);
  all.repeating.erase(id);
}

watcher_fn WatchRegistry::watcher() {
  return fire;
}

void* WatchRegistry::context(Id id) {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(id));
}

void drop_watch(ZkSession& session, const std::string& path, ZooWatcherType type,
                WatchRegistry::Id id) noexcept {
  WatchRegistry::remove(id);
  if (session.handle()) {
    zoo_aremove_watches(session.handle(), path.c_str(), type, WatchRegistry::watcher(),
                        WatchRegistry::context(id), 0, as_declared(ignore_answer), nullptr);
  }
}

}  // namespace zk
}  // namespace dlock
