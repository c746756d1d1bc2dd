#include "backends/zookeeper/zk_leader.hpp"

#include <zookeeper/zookeeper.h>

#include <future>
#include <string>
#include <vector>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_nodes.hpp"

namespace dlock {
namespace {

// How many times the leader's node may be found gone between the listing and
// its read (it was released meanwhile) before the read gives up: nobody leads
// steadily enough to be named.
constexpr int max_reads = 5;

template <typename Result>
std::future<Result> watched(std::future<Result> (*send)(zk::ZkSession&, const std::string&, watcher_fn, void*),
                            zk::ZkSession& session, const std::string& path, zk::WatchRegistry::Id watch_id) {
  if (watch_id == 0) return send(session, path, nullptr, nullptr);
  return send(session, path, zk::WatchRegistry::watcher(), zk::WatchRegistry::context(watch_id));
}

}  // namespace

std::optional<Leader> read_leader(zk::ZkSession& session, const ZkLockLayout& layout,
                                  zk::WatchRegistry::Id watch_id) {
  const std::string& path = layout.path();
  for (int read = 0; read < max_reads; ++read) {
    auto listed = zk::send_list(session, path, watch_id);
    const zk::ChildrenResult children = zk::await(session, listed, "getChildren", path);
    if (children.rc == ZNONODE) {
      // No child watch on a missing node: learn of its creation instead.
      if (watch_id != 0) {
        auto found = watched(&zk::send_exists, session, path, watch_id);
        const zk::StatResult exists = zk::await(session, found, "exists", path);
        if (exists.rc == ZOK) continue;  // made meanwhile: list it
        if (exists.rc != ZNONODE) zk::raise_for(exists.rc, "exists", path);
      }
      return std::nullopt;
    }
    if (children.rc != ZOK) zk::raise_for(children.rc, "getChildren", path);
    const std::vector<std::string> holders = layout.holding(children.children);
    if (holders.empty()) return std::nullopt;
    const std::string node = path + "/" + holders.front();
    auto answer = watched(&zk::send_get, session, node, watch_id);
    const zk::DataResult data = zk::await(session, answer, "getData", node);
    if (data.rc == ZNONODE) continue;
    if (data.rc != ZOK) zk::raise_for(data.rc, "getData", node);
    Leader leader;
    leader.term = static_cast<uint64_t>(data.stat.czxid);
    leader.since_ms = data.stat.ctime;
    leader.value = data.data;
    return leader;
  }
  return std::nullopt;
}

}  // namespace dlock
