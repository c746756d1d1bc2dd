#include "backends/zookeeper/zk_children_watch.hpp"

#include <zookeeper/zookeeper.h>

#include <memory>

namespace dlock {
namespace {

// What the listing's answer needs to fall back to an exists watch: owned by
// the answer's completion.
struct Arming {
  zhandle_t* handle;
  std::string path;
  zk::WatchRegistry::Id id;
};

void ignore_stat(int, const Stat*, const void*) {}

void on_listed(int rc, const String_vector*, const Stat*, const void* data) {
  const std::unique_ptr<const Arming> arming(static_cast<const Arming*>(data));
  // No path, no child watch: wait for the path to come back (a new node's
  // container parent), which an exists watch sees.
  if (rc == ZNONODE) {
    zoo_awexists(arming->handle, arming->path.c_str(), zk::WatchRegistry::watcher(),
                 zk::WatchRegistry::context(arming->id), ignore_stat, nullptr);
  }
}

// Sets the child watch for `id` on `path`, without waiting: it runs on the
// completion thread too, which must never block.
void arm(zhandle_t* handle, const std::string& path, zk::WatchRegistry::Id id) {
  if (handle == nullptr) return;
  auto arming = std::make_unique<Arming>(Arming{handle, path, id});
  if (zoo_awget_children2(handle, path.c_str(), zk::WatchRegistry::watcher(), zk::WatchRegistry::context(id),
                          on_listed, arming.get()) == ZOK) {
    arming.release();  // the completion owns it now
  }
}

}  // namespace

ZkChildrenWatch::ZkChildrenWatch(zk::ZkSession& session, std::string path, Waiter& waiter)
    : session_(session), path_(std::move(path)) {
  auto id = std::make_shared<zk::WatchRegistry::Id>(0);
  // The id is set before the first arm: the registry's lock orders it before any firing.
  id_ = zk::WatchRegistry::add_repeating([handle = session_.handle(), path = path_, &waiter, id] {
    waiter.signal();
    arm(handle, path, *id);
  });
  *id = id_;
  arm(session_.handle(), path_, id_);
  waiter.signal();
}

ZkChildrenWatch::~ZkChildrenWatch() {
  zk::drop_watch(session_, path_, ZWATCHTYPE_ANY, id_);  // a child watch, or an exists watch
}

}  // namespace dlock
